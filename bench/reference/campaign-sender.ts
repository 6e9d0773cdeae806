// The reference for a campaign: the same number of mails of the same size sent as fast as a nodemailer pool
// (5 connections, like postbox's) gets them into the SMTP sink, nothing written to disk. It is the SMTP
// server's pace that the campaign is measured against.
// Usage: campaign-sender.ts <smtp-port> <count> <html-file>; prints {"ms": <elapsed>, "failed": <n>}.
import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';

const [port, count, htmlFile] = process.argv.slice(2);
const html = readFileSync(String(htmlFile), 'utf8');
const text = html.replace(/<[^>]+>/g, '');
const transport = nodemailer.createTransport({ pool: true, host: '127.0.0.1', port: Number(port), secure: false, ignoreTLS: true });
const total = Number(count);
/** Mails handed to the pool at once, like the campaign's window in the queue. */
const WINDOW = 16;
let next = 0;
let failed = 0;
const started = performance.now();

async function worker(): Promise<void> {
  while (next < total) {
    const index = next;
    next += 1;
    await transport
      .sendMail({
        from: 'Bench News <refs@bench.example>',
        to: `reader${index}@example.org`,
        subject: 'A post for the bench',
        text,
        html,
        headers: { Precedence: 'bulk', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        list: { unsubscribe: `https://forms.bench.example/newsletter/unsubscribe?token=${index}`, id: 'newsletter.forms.bench.example' },
      })
      .catch(() => (failed += 1));
  }
}

await Promise.all(Array.from({ length: WINDOW }, worker));
process.stdout.write(`${JSON.stringify({ ms: performance.now() - started, failed })}\n`);
transport.close();
