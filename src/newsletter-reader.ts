// What the commands and the campaign test send read of the newsletter outside the running service (`postbox
// subscribers export`, `postbox newsletter send`): the current subscribers and the unsubscribe secret, from
// data_dir or, with `[state] backend = "postgres"`, from the rows every replica shares (contract section 8).
import { randomBytes } from 'node:crypto';
import type { Config, NewsletterForm } from './config/config.js';
import { readSubscribers } from './forms/newsletter/index.js';
import { loadNewsletterSecret } from './forms/newsletter/newsletter-secret.js';
import type { Subscriber } from './forms/newsletter/subscriber-events.js';
import { createLogger } from './log.js';
import { createPostgresNewsletterStore, readPostgresSubscribers } from './storage/postgres/newsletter-store.js';
import { createPostgresState, type PostgresState } from './storage/postgres/state.js';
import { UnavailableError } from './unavailable-error.js';

/** How long a command waits for the database to answer (and be migrated) before it gives up. */
const CONNECT_WAIT_MS = 10_000;

export interface NewsletterReader {
  subscribers(form: NewsletterForm): Promise<Subscriber[]>;
  /** The secret of unsubscribe links, created when there is none yet. */
  secret(): Promise<Buffer>;
  /** Releases the database connection, if any. */
  close(): Promise<void>;
}

export function openNewsletterReader(config: Config): NewsletterReader {
  if (config.state.backend !== 'postgres') {
    return {
      subscribers: (form) => readSubscribers(config.data_dir, form),
      secret: () => loadNewsletterSecret(config.data_dir, randomBytes),
      close: async () => undefined,
    };
  }
  // A command's output is its own: the state's log lines would mix into it.
  const state = createPostgresState(config.state.url!, createLogger({ destination: { write: () => undefined }, timestamp: () => '' }, 'silent'));
  const store = createPostgresNewsletterStore(state, randomBytes);
  return {
    async subscribers(form) {
      await migrated(state);
      return readPostgresSubscribers(state, form);
    },
    async secret() {
      await migrated(state);
      return store.secret();
    },
    close: () => state.close(),
  };
}

/** Resolves once the database is migrated; rejects with UnavailableError after CONNECT_WAIT_MS. */
async function migrated(state: PostgresState): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnavailableError('postgres')), CONNECT_WAIT_MS);
  });
  try {
    await Promise.race([state.migrated(), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
