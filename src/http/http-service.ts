// A service as `postbox serve` runs it: a front door on its own listen address, and what to do once it stopped.
import type { ListenAddress } from '../config/config.js';
import type { RequestListener } from './front-door.js';
import type { HttpServerSettings } from './http-server.js';

export interface HttpService {
  name: 'forms' | 'blog';
  listen: ListenAddress;
  /** The service's front door: every request goes through it. */
  handle: RequestListener;
  serverSettings: HttpServerSettings;
  /** Runs after the server stopped accepting and requests in flight ended: persist state, release resources. */
  close(): Promise<void>;
}
