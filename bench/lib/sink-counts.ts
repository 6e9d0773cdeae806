// Asks the SMTP sink (bench/reference/smtp-sink.ts) over IPC what arrived from one envelope sender.
import type { ChildProcess } from 'node:child_process';

export interface SinkCounts {
  messages: number;
  bytes: number;
}

/** The sink's counts of mail from `sender` (each contender has its own envelope sender). */
export function sinkCounts(child: ChildProcess, sender: string): Promise<SinkCounts> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve((message as { bySender: Record<string, SinkCounts> }).bySender[sender] ?? { messages: 0, bytes: 0 }));
    child.send('counts');
  });
}
