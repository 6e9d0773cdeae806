// The idle time-out of a server's connections: one that has read and written nothing for `idleMs` is closed.
// It covers an answer whose client stops reading it and a kept-alive connection waiting for its next request.
// A sweep looks at every connection a few times per time-out instead of a timer per socket: Node's socket
// time-out is pushed back on every read and write, which cost about 3 % of a cached blog answer's CPU
// (docs/performance.md "Runtime ratios of the blog and the rejected submission").
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

interface Activity {
  /** Bytes read and handed to the kernel (or queued for it) so far. */
  bytes: number;
  /** When `bytes` last changed, in ms of the sweep's clock. */
  since: number;
}

/** The sweep's period for a time-out: a connection is closed between `idleMs` and `idleMs + period` after it fell still. */
function sweepPeriodMs(idleMs: number): number {
  return Math.min(1000, Math.max(10, Math.floor(idleMs / 4)));
}

/** Closes `server`'s connections once idle for `idleMs`; the sweep stops when the server closes. */
export function sweepIdleConnections(server: Server, idleMs: number): void {
  const connections = new Map<Socket, Activity>();
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { bytes: 0, since: performance.now() });
    socket.once('close', () => connections.delete(socket));
  });
  const sweepConnections = () => {
    const at = performance.now();
    for (const [socket, activity] of connections) {
      const bytes = socket.bytesRead + (socket.bytesWritten ?? 0);
      if (bytes !== activity.bytes) {
        activity.bytes = bytes;
        activity.since = at;
      } else if (at - activity.since >= idleMs) {
        socket.destroy();
      }
    }
  };
  // From the bind to the close; a server that never listens has nothing to sweep.
  server.once('listening', () => {
    const sweep = setInterval(sweepConnections, sweepPeriodMs(idleMs)).unref();
    server.once('close', () => clearInterval(sweep));
  });
}
