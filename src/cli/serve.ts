// `postbox serve`: binds every listen address first, then builds the services and hands each server its
// front door, and stops them gracefully (docs/forms-api.md "Time-outs and stopping"). Binding first means a
// port in use ends the start before any data is loaded or written: a second `serve` beside a running one must
// not load, and then overwrite on its way out, the rate-limit snapshot of the first.
import { composeServices, plannedServicesOf, type ComposedServices, type RootDeps } from '../app/compose.js';
import type { Config } from '../config/config.js';
import { bindHttp, type BoundServer } from '../http/http-server.js';

/** In-flight requests get this long to finish after SIGTERM/SIGINT. */
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServices {
  /** The bound addresses by service name, e.g. for tests that listen on port 0. */
  addresses: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Binds, builds and serves every service of `config`; nothing stays listening when one cannot listen or be
 * built. A port that cannot be bound rejects with the http server's ListenError.
 */
export async function startServices(config: Config, deps: RootDeps): Promise<RunningServices> {
  const { logger, requestLog } = deps;
  const bound = new Map<string, BoundServer>();
  let composed: ComposedServices | undefined;
  const stop = async () => {
    const servers = [...bound.values()];
    bound.clear();
    await Promise.all(servers.map((server) => server.close(SHUTDOWN_GRACE_MS)));
    // After the last answers: the pending request lines are written before the services log their own.
    requestLog.flush();
    await composed?.close();
  };
  try {
    for (const planned of plannedServicesOf(config)) bound.set(planned.name, await bindHttp(planned.listen));
    composed = await composeServices(config, deps);
    const addresses: Record<string, string> = {};
    for (const service of composed.services) {
      const server = bound.get(service.name)!;
      server.serve(service.handle, service.serverSettings);
      addresses[service.name] = server.address;
      logger.info({ event: 'listening', service: service.name, address: server.address }, 'listening');
    }
    return { addresses, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
