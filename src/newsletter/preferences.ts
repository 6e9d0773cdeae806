// The preference page's decisions (docs/newsletter.md "Preferences"): which lists an address sees, and the joins and
// leaves a choice comes to, each a `subscribed` or `unsubscribed` event of that list's log. The token is the
// capability: it was mailed to the address, so a join needs no new confirmation. Logs carry list ids, never an address.
import type { NewsletterList } from '../config/config.js';
import type { Logger } from '../kit/log.js';
import { safeReason } from '../kit/safe-reason.js';
import { UnavailableError } from '../kit/unavailable-error.js';
import type { Clock } from '../ports.js';
import type { NewsletterStore } from './newsletter-store.js';
import { createPreferencesToken, readPreferencesToken } from './unsubscribe-token.js';

/** One list as the page shows it. */
export interface PreferenceList {
  id: string;
  name: string;
  description: string;
  joined: boolean;
  /** A list that is not public is shown only to those on it, to leave it. */
  public: boolean;
}

/** What the page shows to the holder of a token. */
export interface PreferencesView {
  email: string;
  lists: PreferenceList[];
}

/** What a change came to; `not_saved` when a write failed (what was written before stays). */
export type PreferencesOutcome = { kind: 'saved'; view: PreferencesView; joined: string[]; left: string[] } | { kind: 'bad_token' } | { kind: 'not_saved' };

export interface Preferences {
  /** The lists the holder of `token` sees, or undefined for a bad token. Changes nothing. */
  view(token: string | undefined): Promise<PreferencesView | undefined>;
  /** Joins the public lists among `ticked` and leaves the shown lists not among them. */
  save(token: string | undefined, ticked: readonly string[]): Promise<PreferencesOutcome>;
  /** Leaves every list, public or not. */
  leaveAll(token: string | undefined): Promise<PreferencesOutcome>;
  /** Leaves the list `id` alone: the one-click unsubscribe of a mail of a list without a form (docs/newsletter.md "Leaving the list"). */
  leave(token: string | undefined, id: string): Promise<PreferencesOutcome>;
  /** `<public_url>/newsletter/preferences?token=...` for `email`, for every mail to a subscriber. */
  linkFor(email: string): Promise<string>;
}

export interface PreferencesDeps {
  store: NewsletterStore;
  lists: readonly NewsletterList[];
  /** `<public_url>/newsletter/preferences`. */
  url: string;
  clock: Clock;
  logger: Logger;
  /** Told of each list joined here (a welcome may start); never rejects. */
  onJoin?(list: NewsletterList, email: string): void;
}

export function createPreferences(deps: PreferencesDeps): Preferences {
  const { store, lists, clock, logger } = deps;

  async function emailOf(token: string | undefined): Promise<string | undefined> {
    return readPreferencesToken(await store.secret(), token);
  }

  async function viewOf(email: string): Promise<PreferencesView> {
    const joined = await Promise.all(lists.map((list) => store.isSubscribed(list.log, email)));
    const shown = lists
      .map((list, index) => ({ id: list.id, name: list.name, description: list.description, public: list.public, joined: joined[index]! }))
      .filter((list) => list.public || list.joined);
    return { email, lists: shown };
  }

  /** Applies the wanted state of each list; the joins and leaves done, or `not_saved`. UnavailableError goes up (503). */
  async function apply(email: string, wants: (list: PreferenceList) => boolean): Promise<PreferencesOutcome> {
    const before = await viewOf(email);
    const at = new Date(clock()).toISOString();
    const joined: string[] = [];
    const left: string[] = [];
    try {
      for (const shown of before.lists) {
        const list = lists.find((candidate) => candidate.id === shown.id)!;
        const want = wants(shown);
        if (want && !shown.joined && shown.public && (await store.join(list.log, email, at))) {
          joined.push(list.id);
          deps.onJoin?.(list, email);
        } else if (!want && shown.joined && (await store.unsubscribe(list.log, email, at))) {
          left.push(list.id);
        }
      }
    } catch (error) {
      if (error instanceof UnavailableError) throw error;
      logger.error({ event: 'preferences_write_failed', reason: safeReason(error) }, 'could not save a change of lists');
      return { kind: 'not_saved' };
    }
    logger.info({ event: 'preferences_saved', joined, left }, 'lists changed on the preference page');
    return { kind: 'saved', view: await viewOf(email), joined, left };
  }

  return {
    async view(token) {
      const email = await emailOf(token);
      return email === undefined ? undefined : viewOf(email);
    },
    async save(token, ticked) {
      const email = await emailOf(token);
      if (email === undefined) return { kind: 'bad_token' };
      const wanted = new Set(ticked);
      return apply(email, (list) => wanted.has(list.id));
    },
    async leaveAll(token) {
      const email = await emailOf(token);
      // The page shows every list the address is on (those not public too), so leaving each shown one leaves all.
      return email === undefined ? { kind: 'bad_token' } : apply(email, () => false);
    },
    async leave(token, id) {
      const email = await emailOf(token);
      return email === undefined ? { kind: 'bad_token' } : apply(email, (list) => list.joined && list.id !== id);
    },
    linkFor: async (email) => `${deps.url}?token=${encodeURIComponent(createPreferencesToken(await store.secret(), email))}`,
  };
}
