// Chooses the mail adapter that [mail] asks for (docs/configuration.md "[mail]": "smtp", the default when
// [mail.smtp] is there, or "file").
import type { MailConfig } from '../../config/config.js';
import type { Clock, Mailer } from '../../ports.js';
import { createFileMailer } from './file-mailer.js';
import { outboxDirOf } from './outbox-dir.js';
import { createSmtpMailer } from './smtp-mailer.js';

/** The configured Mailer, signing with [mail.dkim] when there is one; the file transport writes to `<dataDir>/outbox`. */
export function createMailer(mail: MailConfig, dataDir: string, clock: Clock): Mailer {
  if (mail.transport === 'smtp') return createSmtpMailer(mail.smtp, mail.dkim);
  return createFileMailer({ outboxDir: outboxDirOf(dataDir), clock, dkim: mail.dkim });
}
