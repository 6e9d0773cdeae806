// The reference for the accepted path: a bare node:http server that parses the JSON submission and sends the
// same two mails as postbox (owner mail, then the receipt) through a nodemailer pool to the same SMTP server.
// Usage: mailing-server.ts <smtp-port> <answer-after: owner|receipt>. GET /stats reports what it completed.
import http from 'node:http';
import nodemailer from 'nodemailer';

const smtpPort = Number(process.argv[2]);
const answerAfterReceipt = process.argv[3] !== 'owner';
const transport = nodemailer.createTransport({ pool: true, host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true });
const stats = { completed: 0, failed: 0 };
const FROM = 'Bench Forms <forms@bench.example>';

interface Submission {
  name?: string;
  email?: string;
  service?: string;
  message?: string;
}

async function deliver(submission: Submission): Promise<void> {
  await transport.sendMail({
    from: FROM,
    to: 'owner@bench.example',
    replyTo: submission.email,
    subject: `New contact message from ${submission.name}`,
    text: `Name: ${submission.name}\nEmail: ${submission.email}\nService: ${submission.service ?? '-'}\n\n${submission.message}\n`,
  });
  const receipt = transport.sendMail({
    from: FROM,
    to: submission.email,
    subject: 'We received your message',
    text: 'Thank you for your message to Bench Site. We received it and will answer soon.\n',
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

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`LISTENING http://127.0.0.1:${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    transport.close();
    process.exit(0);
  });
});
