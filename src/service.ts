// What `postbox serve` runs: a Fastify app on its own listen address, and what to do once it has stopped.
import type { FastifyInstance } from 'fastify';
import type { ListenAddress } from './config/schema.js';

export interface Service {
  name: 'forms' | 'blog';
  app: FastifyInstance;
  listen: ListenAddress;
  /** Runs after the app stopped accepting and in-flight requests ended: persist state, release resources. */
  shutdown(): Promise<void>;
}
