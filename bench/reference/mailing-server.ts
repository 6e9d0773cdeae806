// The reference for the accepted path: a bare node:http server that parses the JSON submission and sends the
// same two mails as postbox (owner mail, then the receipt) through a nodemailer pool to the same SMTP server.
// Usage: mailing-server.ts <smtp-port> <answer-after: owner|receipt>. GET /stats reports what it completed.
import http from 'node:http';
import nodemailer from 'nodemailer';
import { listenAndAnnounce } from './listen.js';

const smtpPort = Number(process.argv[2]);
const answerAfterReceipt = process.argv[3] !== 'owner';
const transport = nodemailer.createTransport({ pool: true, host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
const stats = { completed: 0, failed: 0 };
// Its own sender (same length as postbox's), so that the SMTP sink counts each side's mail apart.
const FROM = 'Bench Forms <refs@bench.example>';
const OWNER = 'owner@bench.example';
const SITE = 'bench.example';

interface Submission {
  name?: string;
  email?: string;
  service?: string;
  message?: string;
}

/** The owner mail and receipt with the same headers and text as postbox's (src/forms/notifications.ts). */
async function deliver(submission: Submission): Promise<void> {
  const lines = ['New contact form submission on /contact', '', `Name: ${submission.name}`, `Email: ${submission.email}`];
  if (submission.service !== undefined) lines.push(`Service: ${submission.service}`);
  lines.push(`Received: ${new Date().toISOString()}`, '', 'Message:', String(submission.message));
  await transport.sendMail({
    from: FROM,
    to: OWNER,
    replyTo: submission.email,
    subject: `New contact form submission from ${submission.name}`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    text: `${lines.join('\n')}\n\nReply to this mail to answer the sender.\n`,
  });
  const receipt = transport.sendMail({
    from: FROM,
    to: submission.email,
    subject: `We received your message \u2013 ${SITE}`,
    headers: { 'Auto-Submitted': 'auto-replied' },
    text: [
      'Hello,',
      '',
      `thank you for getting in touch with ${SITE}. Your message has arrived and we will read it soon.`,
      '',
      'This is an automatic receipt: there is no need to answer it. If you did not send a message',
      'to us, someone else entered your address and you can ignore this mail.',
      '',
    ].join('\n'),
  });
  if (answerAfterReceipt) await receipt;
  else receipt.catch(() => (stats.failed += 1));
}

const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/stats') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let submission: Submission;
    try {
      submission = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Submission;
    } catch {
      response.writeHead(400, { 'content-type': 'application/json; charset=utf-8' }).end('{"error":"invalid_body"}');
      return;
    }
    deliver(submission).then(
      () => {
        stats.completed += 1;
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
      },
      () => {
        stats.failed += 1;
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end('{"error":"send_failed"}');
      },
    );
  });
});

listenAndAnnounce(server, () => transport.close());
