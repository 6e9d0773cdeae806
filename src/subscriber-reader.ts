// Where the commands read a newsletter's current subscribers (`postbox subscribers export`, `postbox newsletter
// send`): the log in data_dir, or the rows in PostgreSQL with `[state] backend = "postgres"` (contract section 8).
import type { Config, NewsletterForm } from './config/config.js';
import { readSubscribers } from './forms/newsletter/index.js';
import type { Subscriber } from './forms/newsletter/subscriber-events.js';
import { createLogger } from './log.js';
import { readPostgresSubscribers } from './storage/postgres/newsletter-store.js';
import { createPostgresState } from './storage/postgres/state.js';
import { UnavailableError } from './unavailable-error.js';

/** How long a command waits for the database to answer (and be migrated) before it gives up. */
const CONNECT_WAIT_MS = 10_000;

export interface SubscriberReader {
  read(form: NewsletterForm): Promise<Subscriber[]>;
  /** Releases the database connection, if any. */
  close(): Promise<void>;
}

export function openSubscriberReader(config: Config): SubscriberReader {
  if (config.state.backend !== 'postgres') return { read: (form) => readSubscribers(config.data_dir, form), close: async () => undefined };
  // A command's output is its own: the state's log lines would mix into it.
  const state = createPostgresState(config.state.url!, createLogger({ destination: { write: () => undefined }, timestamp: () => '' }, 'silent'));
  return {
    async read(form) {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new UnavailableError('postgres')), CONNECT_WAIT_MS);
      });
      try {
        await Promise.race([state.migrated(), gaveUp]);
      } finally {
        clearTimeout(timer);
      }
      return readPostgresSubscribers(state, form);
    },
    close: () => state.close(),
  };
}
