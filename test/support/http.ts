// Driving a service's front door, as production does: `inject` through light-my-request (no socket, the same
// request listener a server calls) or a real server on 127.0.0.1 with an ephemeral port.
import inject from 'light-my-request';
import { listenHttp, type HttpServerSettings, type RunningServer } from '../../src/http/http-server.js';
import type { HttpService } from '../../src/http/http-service.js';

/** light-my-request sends any method as it is; its type names only the common ones, and tests also send TRACE. */
export type InjectOptions = Omit<inject.InjectOptions, 'method'> & { method?: inject.InjectOptions['method'] | 'TRACE' };
export type InjectedResponse = inject.Response;

/** What tests call on a service: `inject` a request, or `listen` on a real socket (closed by the caller). */
export interface ServiceDriver {
  inject(options: InjectOptions | string): Promise<InjectedResponse>;
  listen(settings?: Partial<HttpServerSettings>): Promise<RunningServer>;
}

/** A driver for `service`'s front door and server settings. */
export function driveService(service: Pick<HttpService, 'handle' | 'serverSettings'>): ServiceDriver {
  return {
    inject: (options) => inject(service.handle, options as inject.InjectOptions | string),
    listen: (settings = {}) => listenHttp(service.handle, { host: '127.0.0.1', port: 0 }, { ...service.serverSettings, ...settings }),
  };
}
