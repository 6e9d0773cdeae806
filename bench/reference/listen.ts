// What every reference HTTP server of the benches does around its handler: listen on an ephemeral loopback port,
// print "LISTENING <url>" for startHelper (bench/lib/processes.ts), and stop cleanly on SIGTERM.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1:0 and announces the URL; on SIGTERM closes every connection, runs `onClose`, exits 0. */
export function listenAndAnnounce(server: http.Server, onClose: () => void = () => {}): void {
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`LISTENING http://127.0.0.1:${port}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      onClose();
      process.exit(0);
    });
  });
}
