// What the commands and the campaign test send read of the newsletter outside the running service (`postbox
// subscribers export`, `postbox newsletter send`): the current subscribers and the unsubscribe secret, from data_dir
// or, with `[state] backend = "postgres"`, from the rows every replica shares (docs/newsletter.md "With PostgreSQL").
import { randomBytes } from 'node:crypto';
import type { Config, NewsletterForm } from './config/config.js';
import { readSubscribers } from './forms/newsletter/index.js';
import { loadNewsletterSecret } from './forms/newsletter/newsletter-secret.js';
import type { Subscriber } from './forms/newsletter/subscriber-events.js';
import { createSilentLogger } from './log.js';
import { createPostgresNewsletterStore, readPostgresSubscribers } from './storage/postgres/newsletter-store.js';
import { createPostgresState, migratedForCommand } from './storage/postgres/state.js';


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
  const state = createPostgresState(config.state.url!, createSilentLogger());
  const store = createPostgresNewsletterStore(state, randomBytes);
  return {
    async subscribers(form) {
      await migratedForCommand(state);
      return readPostgresSubscribers(state, form);
    },
    async secret() {
      await migratedForCommand(state);
      return store.secret();
    },
    close: () => state.close(),
  };
}
