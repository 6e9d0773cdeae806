// `postbox serve`: listens every composed service on its own address, and stops them gracefully
// (docs/forms-api.md "Time-outs and stopping").
import type { ComposedServices } from './composition-root.js';
import { listenHttp, type RunningServer } from './http/http-server.js';
import type { RequestLog } from './http/request-log.js';
import type { Logger } from './log.js';

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServices {
  /** The bound addresses by service name, e.g. for tests that listen on port 0. */
  addresses: Record<string, string>;
  stop(): Promise<void>;
}

/** Listens every service; nothing stays listening when one cannot listen. */
export async function startServices(composed: ComposedServices, logger: Logger, requestLog: RequestLog): Promise<RunningServices> {
  const running: RunningServer[] = [];
  const stop = async () => {
    await Promise.all(running.splice(0).map((server) => server.close(SHUTDOWN_GRACE_MS)));
    // After the last answers: the pending request lines are written before the services log their own.
    requestLog.flush();
    await composed.close();
  };
  try {
    const addresses: Record<string, string> = {};
    for (const service of composed.services) {
      const server = await listenHttp(service.handle, service.listen, service.serverSettings);
      running.push(server);
      addresses[service.name] = server.address;
      logger.info({ event: 'listening', service: service.name, address: server.address }, 'listening');
    }
    return { addresses, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
