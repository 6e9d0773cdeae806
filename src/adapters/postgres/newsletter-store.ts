// The newsletter's records in PostgreSQL (docs/newsletter.md "With PostgreSQL"): pending signups, subscriber events
// and the unsubscribe secret as rows every replica shares. Nothing is kept in memory but the secret, so an unsubscribe
// on one replica counts on every other at once. Times compared are the service clock's, passed in.
import type { NewsletterForm, SubscriberLogRef } from '../../config/config.js';
import type { NewsletterStore } from '../../newsletter/newsletter-store.js';
import type { PendingRecord } from '../../newsletter/pending.js';
import type { Subscriber } from '../../newsletter/subscriber-events.js';
import type { RandomBytes } from '../../ports.js';
import type { PostgresState } from './state.js';

const SECRET_BYTES = 32;

/** The last event of (form, lower(email)): $1 the form, $2 the address. */
const LAST_EVENT = 'SELECT event FROM subscriber_events WHERE form = $1 AND lower(email) = lower($2) ORDER BY id DESC LIMIT 1';

/**
 * Redeems a token in one statement, so at most one caller anywhere gets its row: the DELETE takes the pending row
 * (only one DELETE of a row succeeds), and a `subscribed` event is inserted in the same statement on each list of
 * the row (the form's own when it names none) that the address is not on already. $1 hash, $2 form, $3 now, $4 the
 * keys of every configured list, $5 their subscriber log names (a list no longer configured is passed over).
 */
const REDEEM = `
WITH taken AS (
  DELETE FROM pending_signups WHERE hash = $1 AND form = $2 AND expires_at > $3
  RETURNING hash, form, email, created_at, expires_at, lists, lang
), chosen AS (
  SELECT known.key, known.log, known.position FROM taken, unnest($4::text[], $5::text[]) WITH ORDINALITY AS known(key, log, position)
  WHERE known.key = ANY(coalesce(taken.lists, ARRAY[taken.form]))
), added AS (
  INSERT INTO subscriber_events (log, form, event, email, at, signed_up_at, source, lang)
  SELECT chosen.log, chosen.key, 'subscribed', taken.email, $3, taken.created_at, taken.form, taken.lang FROM taken, chosen
  WHERE coalesce((SELECT event FROM subscriber_events WHERE form = chosen.key AND lower(email) = lower(taken.email) ORDER BY id DESC LIMIT 1), '') <> 'subscribed'
  ORDER BY chosen.position
)
SELECT hash, form, email, created_at, expires_at, lists, lang FROM taken`;

/** An `unsubscribed` event when the address is on the list: $1 log, $2 form, $3 address, $4 time. */
const UNSUBSCRIBE = `
INSERT INTO subscriber_events (log, form, event, email, at)
SELECT $1, $2, 'unsubscribed', $3, $4
WHERE (SELECT event FROM subscriber_events WHERE form = $2 AND lower(email) = lower($3) ORDER BY id DESC LIMIT 1) = 'subscribed'`;

/** A `subscribed` event when the address is not on the list: $1 log, $2 list key, $3 address, $4 time, $5 source, $6 language. */
const JOIN = `
INSERT INTO subscriber_events (log, form, event, email, at, signed_up_at, source, lang)
SELECT $1, $2, 'subscribed', $3, $4, $4, $5, $6
WHERE coalesce((SELECT event FROM subscriber_events WHERE form = $2 AND lower(email) = lower($3) ORDER BY id DESC LIMIT 1), '') <> 'subscribed'`;

/** The tags of the address's current subscription, when its last event is one: $1 list key, $2 address, $3 tags. */
const SET_TAGS = `
WITH last AS (SELECT id, event FROM subscriber_events WHERE form = $1 AND lower(email) = lower($2) ORDER BY id DESC LIMIT 1)
INSERT INTO subscriber_tags (subscription, tags) SELECT id, $3 FROM last WHERE event = 'subscribed'
ON CONFLICT (subscription) DO UPDATE SET tags = excluded.tags`;

/**
 * An `unsubscribed` event on every list whose last event for the address is `subscribed`, in its own log: $1 the
 * address, $2 the time. Returns the forms it left.
 */
const REMOVE_EVERYWHERE = `
INSERT INTO subscriber_events (log, form, event, email, at)
SELECT last.log, last.form, 'unsubscribed', last.email, $2
FROM (
  SELECT DISTINCT ON (form) log, form, event, email FROM subscriber_events WHERE lower(email) = lower($1) ORDER BY form, id DESC
) last WHERE last.event = 'subscribed'
RETURNING form`;

interface PendingRow {
  hash: string;
  form: string;
  email: string;
  created_at: Date;
  expires_at: Date;
  lists: string[] | null;
  lang: string | null;
}

function recordOf(row: PendingRow): PendingRecord {
  const record: PendingRecord = { hash: row.hash, form: row.form, email: row.email, createdAt: row.created_at.getTime(), expiresAt: row.expires_at.getTime() };
  if (row.lists) record.lists = row.lists;
  if (row.lang !== null) record.lang = row.lang;
  return record;
}

/** `lists`: the logs of the lists declared without a form (docs/newsletter.md "Lists"), the forms' own being added at each redemption. */
export function createPostgresNewsletterStore(state: PostgresState, randomBytes: RandomBytes, lists: readonly SubscriberLogRef[] = []): NewsletterStore {
  let secret: Buffer | undefined;
  const exists = async (text: string, values: unknown[]) => ((await state.query(text, values)).rowCount ?? 0) > 0;

  return {
    async open() {},
    async secret() {
      if (secret) return secret;
      // The first replica's key wins; every later one reads it back (an imported file's key replaces it, see newsletter-import.ts).
      await state.query('INSERT INTO newsletter_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [randomBytes(SECRET_BYTES)]);
      const { rows } = await state.query<{ secret: Buffer }>('SELECT secret FROM newsletter_secret WHERE id = 1');
      secret = rows[0]!.secret;
      return secret;
    },
    async isSubscribed(form, email) {
      const { rows } = await state.query<{ event: string }>(LAST_EVENT, [form.path, email]);
      return rows[0]?.event === 'subscribed';
    },
    listSubscribers: (form) => readPostgresSubscribers(state, form),
    hasLivePending: (form, email, now) =>
      exists('SELECT 1 FROM pending_signups WHERE form = $1 AND lower(email) = lower($2) AND expires_at > $3 LIMIT 1', [form.path, email, new Date(now)]),
    isLivePending: (form, hash, now) => exists('SELECT 1 FROM pending_signups WHERE hash = $1 AND form = $2 AND expires_at > $3', [hash, form.path, new Date(now)]),
    async addPending(record) {
      await state.query('INSERT INTO pending_signups (hash, form, email, created_at, expires_at, lists, lang) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        record.hash,
        record.form,
        record.email,
        new Date(record.createdAt),
        new Date(record.expiresAt),
        record.lists ?? null,
        record.lang ?? null,
      ]);
    },
    async removePending(hash) {
      await state.query('DELETE FROM pending_signups WHERE hash = $1', [hash]);
    },
    async redeem(form: NewsletterForm, hash, now) {
      const known = [{ path: form.path, subscribers: form.subscribers }, ...lists.filter((log) => log.path !== form.path)];
      const keys = known.map((log) => log.path);
      const { rows } = await state.query<PendingRow>(REDEEM, [hash, form.path, new Date(now), keys, known.map((log) => log.subscribers)]);
      if (rows[0]) return { kind: 'confirmed', record: recordOf(rows[0]), subscribedAt: now };
      // An expired row stays until the purge; a redeemed or unknown one is not there.
      const expired = await exists('SELECT 1 FROM pending_signups WHERE hash = $1 AND form = $2', [hash, form.path]);
      return { kind: 'gone', reason: expired ? 'expired' : 'unknown' };
    },
    join: (log, email, at, attributes = {}) => exists(JOIN, [log.subscribers, log.path, email, at, attributes.source ?? null, attributes.lang ?? null]),
    setTags: (log, email, tags) => exists(SET_TAGS, [log.path, email, tags]),
    claimAutomation: (automation, email, at, lang) =>
      exists('INSERT INTO newsletter_automations_mailed (automation, email_key, email, at, claimed_at, settled, lang) VALUES ($1, lower($2), $2, $3, $3, false, $4) ON CONFLICT DO NOTHING', [
        automation,
        email,
        at,
        lang ?? null,
      ]),
    settleAutomationClaim: ({ automation, email, claimedAt }) =>
      exists('UPDATE newsletter_automations_mailed SET settled = true WHERE automation = $1 AND email_key = lower($2) AND claimed_at = $3', [automation, email, claimedAt]),
    renewAutomationClaim: ({ automation, email, claimedAt }, at) =>
      exists('UPDATE newsletter_automations_mailed SET claimed_at = $4 WHERE automation = $1 AND email_key = lower($2) AND claimed_at = $3 AND NOT settled', [automation, email, claimedAt, at]),
    async unsettledAutomationClaims(before) {
      const { rows } = await state.query<{ automation: string; email: string; claimed_at: Date; lang: string | null }>(
        'SELECT automation, email, claimed_at, lang FROM newsletter_automations_mailed WHERE NOT settled AND claimed_at < $1 ORDER BY claimed_at',
        [before],
      );
      return rows.map((row) => ({ automation: row.automation, email: row.email, claimedAt: row.claimed_at.toISOString(), ...(row.lang !== null ? { lang: row.lang } : {}) }));
    },
    async automationsMailed(ids) {
      const { rows } = await state.query<{ automation: string; email: string; at: Date; lang: string | null }>('SELECT automation, email, at, lang FROM newsletter_automations_mailed WHERE automation = ANY($1::text[])', [ids]);
      return rows.map((row) => ({ automation: row.automation, email: row.email, at: row.at.toISOString(), ...(row.lang !== null ? { lang: row.lang } : {}) }));
    },
    unsubscribe: (form, email, at) => exists(UNSUBSCRIBE, [form.subscribers, form.path, email, at]),
    async removeEverywhere(email, at) {
      const { rows } = await state.query<{ form: string }>(REMOVE_EVERYWHERE, [email, at]);
      return rows.map((row) => row.form).sort();
    },
    async purge(now) {
      return (await state.query('DELETE FROM pending_signups WHERE expires_at <= $1', [new Date(now)])).rowCount ?? 0;
    },
    async close() {},
  };
}

/** The current subscribers of a list, in the order of their last subscription (the list a campaign is sent to). */
export async function readPostgresSubscribers(state: PostgresState, form: SubscriberLogRef): Promise<Subscriber[]> {
  const { rows } = await state.query<SubscriberRow>(
    `SELECT email, at, signed_up_at, source, lang, tags FROM (
       SELECT DISTINCT ON (lower(email)) id, email, event, at, signed_up_at, source, lang FROM subscriber_events WHERE form = $1 ORDER BY lower(email), id DESC
     ) last LEFT JOIN subscriber_tags ON subscriber_tags.subscription = last.id
     WHERE event = 'subscribed' ORDER BY id`,
    [form.path],
  );
  return rows.map(subscriberOf);
}

interface SubscriberRow {
  email: string;
  at: Date | null;
  signed_up_at: Date | null;
  source: string | null;
  lang: string | null;
  tags: string[] | null;
}

function subscriberOf(row: SubscriberRow): Subscriber {
  const subscriber: Subscriber = { email: row.email, subscribed_at: row.at ? row.at.toISOString() : '' };
  if (row.signed_up_at) subscriber.signed_up_at = row.signed_up_at.toISOString();
  if (row.source !== null) subscriber.source = row.source;
  if (row.lang !== null) subscriber.lang = row.lang;
  if (row.tags && row.tags.length > 0) subscriber.tags = row.tags;
  return subscriber;
}
