// Reply subscribers and comment mail tokens in PostgreSQL (docs/comments.md "Reply notifications"), shared by every
// replica: the tables of schema/comment-mail.ts. Each change is one statement: an opt-in claims the confirmation
// mail with a random claim written in the same upsert, and a token is taken by a DELETE ... RETURNING, so of
// concurrent requests on any replica one wins.
import type { CommentMailStore, CommentMailToken, ReplySubscriber } from '../../comments/comment-mail-store.js';
import { comparableEmailAddress } from '../../kit/email-address.js';
import type { PostgresState } from './state.js';

interface SubscriberRow {
  id: string;
  address: string;
  confirmed: boolean;
  confirmation_sent_at: Date | null;
  claim: string | null;
  watched: string[];
}

interface TokenRow {
  hash: string;
  action: 'confirm' | 'moderate';
  subscriber_id: string | null;
  slug: string | null;
  lang: string | null;
  comment_id: string | null;
  expires_at: Date;
}

const SUBSCRIBER_COLUMNS = 'id, address, confirmed, confirmation_sent_at, claim, watched';

function subscriberOf(row: SubscriberRow): ReplySubscriber {
  return { id: row.id, address: row.address, confirmed: row.confirmed, confirmationSentAt: row.confirmation_sent_at?.getTime() ?? null, watched: row.watched };
}

function tokenOf(row: TokenRow): CommentMailToken {
  const expiresAt = row.expires_at.getTime();
  return row.action === 'confirm'
    ? { hash: row.hash, action: 'confirm', subscriberId: row.subscriber_id!, expiresAt }
    : { hash: row.hash, action: 'moderate', comment: { slug: row.slug!, lang: row.lang!, id: row.comment_id! }, expiresAt };
}

export function createPostgresCommentMailStore(state: PostgresState, newClaim: () => string): CommentMailStore {
  return {
    async optIn(optIn) {
      const claim = newClaim();
      const { rows } = await state.query<SubscriberRow>(
        `INSERT INTO blog_comment_subscribers AS s (id, address, address_key, confirmation_sent_at, claim, watched)
         VALUES ($1, $2, $3, $4, $6, ARRAY[$7::text])
         ON CONFLICT (address_key) DO UPDATE SET
           watched = CASE WHEN $7 = ANY (s.watched) THEN s.watched ELSE array_append(s.watched, $7) END,
           claim = CASE WHEN NOT s.confirmed AND (s.confirmation_sent_at IS NULL OR s.confirmation_sent_at <= $5) THEN $6 ELSE s.claim END,
           confirmation_sent_at = CASE WHEN NOT s.confirmed AND (s.confirmation_sent_at IS NULL OR s.confirmation_sent_at <= $5) THEN $4 ELSE s.confirmation_sent_at END
         RETURNING ${SUBSCRIBER_COLUMNS}`,
        [optIn.newId, optIn.address, comparableEmailAddress(optIn.address), new Date(optIn.now), new Date(optIn.resendAfter), claim, optIn.commentId],
      );
      const row = rows[0]!;
      return { subscriber: subscriberOf(row), sendConfirmation: row.claim === claim };
    },
    async subscriberByAddress(address) {
      const { rows } = await state.query<SubscriberRow>(`SELECT ${SUBSCRIBER_COLUMNS} FROM blog_comment_subscribers WHERE address_key = $1`, [comparableEmailAddress(address)]);
      return rows[0] && subscriberOf(rows[0]);
    },
    async subscriberById(id) {
      const { rows } = await state.query<SubscriberRow>(`SELECT ${SUBSCRIBER_COLUMNS} FROM blog_comment_subscribers WHERE id = $1`, [id]);
      return rows[0] && subscriberOf(rows[0]);
    },
    async confirm(id) {
      const { rowCount } = await state.query('UPDATE blog_comment_subscribers SET confirmed = true WHERE id = $1', [id]);
      return rowCount === 1;
    },
    async unsubscribe(id, commentId) {
      const { rowCount } =
        commentId === null
          ? await state.query(`UPDATE blog_comment_subscribers SET watched = '{}', confirmed = false WHERE id = $1`, [id])
          : await state.query('UPDATE blog_comment_subscribers SET watched = array_remove(watched, $2) WHERE id = $1', [id, commentId]);
      return rowCount === 1;
    },
    async addToken(token, now) {
      await state.query('DELETE FROM blog_comment_mail_tokens WHERE expires_at <= $1', [new Date(now)]);
      const comment = token.action === 'moderate' ? token.comment : undefined;
      await state.query('INSERT INTO blog_comment_mail_tokens (hash, action, subscriber_id, slug, lang, comment_id, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        token.hash,
        token.action,
        token.action === 'confirm' ? token.subscriberId : null,
        comment?.slug ?? null,
        comment?.lang ?? null,
        comment?.id ?? null,
        new Date(token.expiresAt),
      ]);
    },
    async findToken(hash, now) {
      const { rows } = await state.query<TokenRow>('SELECT * FROM blog_comment_mail_tokens WHERE hash = $1 AND expires_at > $2', [hash, new Date(now)]);
      return rows[0] && tokenOf(rows[0]);
    },
    async takeToken(hash, now) {
      const { rows } = await state.query<TokenRow>('DELETE FROM blog_comment_mail_tokens WHERE hash = $1 AND expires_at > $2 RETURNING *', [hash, new Date(now)]);
      return rows[0] && tokenOf(rows[0]);
    },
  };
}
