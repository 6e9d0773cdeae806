// "The remote moved" between replicas that share a PostgreSQL (docs/admin.md "Posts in git"): the replica that
// pushed sends NOTIFY on one channel, and every other replica, LISTENing on a connection of its own (a pool hands
// connections out and back, so it cannot hold a LISTEN), fetches at once instead of at its next `pull_seconds`.
// The connection comes back by itself after an outage; the replicas then fetch once, for what they may have missed.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { lazyModule } from '../../kit/lazy-module.js';
import type { Logger } from '../../kit/log.js';
import type { ContentSignal } from './content-sync.js';

/** The channel every replica of one database listens on. */
export const CONTENT_CHANNEL = 'postbox_content';
/** The wait before connecting again after the connection was lost. */
const RECONNECT_MS = 2_000;

const loadPg = lazyModule<typeof pg>('pg');

export interface PostgresSignalOptions {
  reconnectMs?: number;
  /** The channel (tests keep theirs apart). */
  channel?: string;
}

/** The signal over the PostgreSQL at `url`; it connects in the background. */
export function createPostgresSignal(url: string, logger: Logger, options: PostgresSignalOptions = {}): ContentSignal {
  const channel = options.channel ?? CONTENT_CHANNEL;
  // Each replica hears its own NOTIFY too; its id tells it apart.
  const self = randomUUID();
  let onSignal: () => void = () => undefined;
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let connecting: Promise<void> | undefined;
  let lostOnce = false;

  const connect = (): Promise<void> => {
    connecting ??= (async () => {
      const next = new (loadPg().Client)({ connectionString: url, application_name: 'postbox-content', connectionTimeoutMillis: 5_000 });
      next.on('notification', (message) => {
        if (message.channel === channel && message.payload !== self) onSignal();
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        await next.query(`LISTEN ${channel}`);
        if (closed) {
          await next.end().catch(() => undefined);
          return;
        }
        client = next;
        listening = true;
        if (lostOnce) {
          logger.info({ event: 'content_signal_listening' }, 'blog.git: listening for other replicas\u2019 pushes again');
          // Pushes made while nobody listened here are fetched now.
          onSignal();
        }
      } catch (error) {
        await next.end().catch(() => undefined);
        lost(next, error);
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  };

  const lost = (which: pg.Client, error?: unknown) => {
    if (client === which) {
      client = undefined;
      listening = false;
    }
    if (closed || retry) return;
    if (!lostOnce || error) {
      logger.warn({ event: 'content_signal_unavailable', reason: (error as Error | undefined)?.message ?? 'connection ended' }, 'blog.git: not listening for other replicas\u2019 pushes; they are seen at the next fetch');
    }
    lostOnce = true;
    retry = setTimeout(() => {
      retry = undefined;
      if (!closed && !client) void connect();
    }, options.reconnectMs ?? RECONNECT_MS);
    retry.unref();
  };

  void connect();

  return {
    async send() {
      if (!client || !listening) throw Object.assign(new Error('not connected'), { code: 'ENOTCONN' });
      await client.query('SELECT pg_notify($1, $2)', [channel, self]);
    },
    listen(handler) {
      onSignal = handler;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting?.catch(() => undefined);
      const open = client;
      client = undefined;
      await open?.end().catch(() => undefined);
    },
  };
}
