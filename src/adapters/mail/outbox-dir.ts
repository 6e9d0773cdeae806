// Where the `file` transport puts mail (docs/configuration.md "[mail]"): the mailer writes there, and `postbox
// serve` and `postbox check` tell the owner so, since nothing reaches anyone's inbox.
import path from 'node:path';

/** The outbox of the file transport, under data_dir. */
export function outboxDirOf(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/** Where mail goes with the "file" transport, as `serve` logs it at start and `check` prints it. */
export function fileTransportNotice(dataDir: string): string {
  return `written to files under ${outboxDirOf(dataDir)}, not sent (transport = "file"; add [mail.smtp] to send it)`;
}
