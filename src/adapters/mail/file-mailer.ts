// `transport = "file"`: every message becomes one .eml file under data_dir/outbox (docs/configuration.md
// "[mail]").
// nodemailer builds the real MIME message; each file appears atomically (temp file, fsync, rename), so a
// reader of the outbox never sees half a mail (temp files start with a dot and end in .tmp).
import { randomBytes as cryptoRandomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type Nodemailer from 'nodemailer';
import type { DkimConfig } from '../../config/config.js';
import type { Clock, Mailer, RandomBytes } from '../../ports.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';
import { lazyModule } from '../../kit/lazy-module.js';
import { dkimTransportOptions } from './dkim.js';
import { toNodemailerMessage } from './nodemailer-mailer.js';

const nodemailer = lazyModule<typeof Nodemailer>('nodemailer');

export interface FileMailerOptions {
  /** The folder the .eml files go to; made at the first mail when it does not exist. */
  outboxDir: string;
  clock: Clock;
  randomBytes?: RandomBytes;
  /** [mail.dkim]: each file is the message signed as it would be sent. */
  dkim?: DkimConfig;
}

/** A Mailer that writes `<UTC time>-<sequence>-<random>.eml` files, which sort in the order they were sent. */
export function createFileMailer(options: FileMailerOptions): Mailer {
  const transport = nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows', ...dkimTransportOptions(options.dkim) });
  const random = options.randomBytes ?? cryptoRandomBytes;
  let sequence = 0;

  function nextFileName(): string {
    sequence += 1;
    const time = new Date(options.clock()).toISOString().replace(/[-:]/g, '').replace('.', '-');
    return `${time}-${String(sequence).padStart(6, '0')}-${random(4).toString('hex')}.eml`;
  }

  return {
    async send(message) {
      const info = await transport.sendMail(toNodemailerMessage(message));
      await mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, nextFileName());
      await writeFileAtomically(file, info.message as Buffer);
    },
    async close() {
      transport.close();
    },
  };
}
