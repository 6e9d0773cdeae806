// A local SMTP server (smtp-server from npm) that accepts every mail and counts what arrived, for the forms
// benches: both postbox and the nodemailer reference deliver to it. Asked over IPC for its counts.
// Usage: smtp-sink.ts [port] (default: any free port, printed as "LISTENING <port>").
import { SMTPServer } from 'smtp-server';

interface Counts {
  messages: number;
  bytes: number;
  recipients: number;
}

const counts: Counts = { messages: 0, bytes: 0, recipients: 0 };
/** The same counts per envelope sender, so that each contender's mail is told apart from the other's. */
const bySender: Record<string, Counts> = {};

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  hideSTARTTLS: true,
  logger: false,
  maxClients: 1000,
  onData(stream, session, callback) {
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    stream.on('end', () => {
      counts.messages += 1;
      counts.bytes += bytes;
      counts.recipients += session.envelope.rcptTo.length;
      const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      const own = (bySender[sender] ??= { messages: 0, bytes: 0, recipients: 0 });
      own.messages += 1;
      own.bytes += bytes;
      own.recipients += session.envelope.rcptTo.length;
      callback();
    });
  },
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.server.address();
  process.stdout.write(`LISTENING ${typeof address === 'object' && address ? address.port : ''}\n`);
});

process.on('message', (message) => {
  if (message === 'counts') process.send?.({ ...counts, bySender });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
