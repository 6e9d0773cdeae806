// The blog's ActivityPub records in PostgreSQL (docs/activitypub.md "What is kept"), shared by every replica: the
// tables of schema/activitypub.ts (migrations 16 and 18). The key pair is inserted only when there is none, so of replicas starting at
// once one pair wins and every replica reads it.
import type { ActivityPubStore, ActorKeys, DeliveredRecord, Follower, RemoteObject } from '../../activitypub/activitypub-store.js';
import type { PostgresState } from './state.js';

interface RemoteObjectRow {
  object_id: string;
  actor_id: string;
  slug: string;
  lang: string;
  comment_id: string;
}

const REMOTE_COLUMNS = 'object_id, actor_id, slug, lang, comment_id';

function remoteObjectOf(row: RemoteObjectRow): RemoteObject {
  return { objectId: row.object_id, actorId: row.actor_id, comment: { slug: row.slug, lang: row.lang, id: row.comment_id } };
}

export function createPostgresActivityPubStore(state: PostgresState): ActivityPubStore {
  return {
    async keys(create) {
      const read = async () => (await state.query<{ private_key: JsonWebKey; public_key: JsonWebKey }>('SELECT private_key, public_key FROM activitypub_keys WHERE id = 1')).rows[0];
      const kept = await read();
      if (kept) return { privateKey: kept.private_key, publicKey: kept.public_key };
      const made: ActorKeys = await create();
      await state.query('INSERT INTO activitypub_keys (id, private_key, public_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING', [JSON.stringify(made.privateKey), JSON.stringify(made.publicKey)]);
      const row = (await read())!;
      return { privateKey: row.private_key, publicKey: row.public_key };
    },
    async addFollower(follower) {
      await state.query(
        `INSERT INTO activitypub_followers (actor_id, inbox, shared_inbox) VALUES ($1, $2, $3)
         ON CONFLICT (actor_id) DO UPDATE SET inbox = EXCLUDED.inbox, shared_inbox = EXCLUDED.shared_inbox`,
        [follower.id, follower.inbox, follower.sharedInbox],
      );
    },
    async removeFollower(id) {
      return ((await state.query('DELETE FROM activitypub_followers WHERE actor_id = $1', [id])).rowCount ?? 0) > 0;
    },
    async followers() {
      const { rows } = await state.query<{ actor_id: string; inbox: string; shared_inbox: string | null }>('SELECT actor_id, inbox, shared_inbox FROM activitypub_followers ORDER BY followed_at, actor_id');
      return rows.map((row): Follower => ({ id: row.actor_id, inbox: row.inbox, sharedInbox: row.shared_inbox }));
    },
    async readDelivered() {
      const { rows } = await state.query<{ post_key: string; article_id: string; change: string }>('SELECT post_key, article_id, change FROM activitypub_delivered');
      return Object.fromEntries(rows.map((row) => [row.post_key, { id: row.article_id, change: row.change }])) as DeliveredRecord;
    },
    async writeDelivered(record) {
      const entries = Object.entries(record);
      await state.query(
        `WITH next AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS t(post_key, article_id, change)),
         gone AS (DELETE FROM activitypub_delivered WHERE post_key <> ALL ($1::text[]))
         INSERT INTO activitypub_delivered (post_key, article_id, change) SELECT post_key, article_id, change FROM next
         ON CONFLICT (post_key) DO UPDATE SET article_id = EXCLUDED.article_id, change = EXCLUDED.change`,
        [entries.map(([key]) => key), entries.map(([, value]) => value.id), entries.map(([, value]) => value.change)],
      );
    },
    // A take is an INSERT ... ON CONFLICT DO NOTHING RETURNING (as the webmentions' ledger): of replicas taking the
    // same inbox, one gets the row.
    takeInboxes: (postKey, activityId, inboxes) =>
      state.transaction(async (query) => {
        await query('DELETE FROM activitypub_queued WHERE post_key = $1 AND activity_id <> $2', [postKey, activityId]);
        if (inboxes.length === 0) return [];
        const { rows } = await query<{ inbox: string }>(
          'INSERT INTO activitypub_queued (post_key, activity_id, inbox) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING RETURNING inbox',
          [postKey, activityId, [...new Set(inboxes)]],
        );
        return rows.map((row) => row.inbox);
      }),
    async giveBackInboxes(postKey, activityId, inboxes) {
      await state.query('DELETE FROM activitypub_queued WHERE post_key = $1 AND activity_id = $2 AND inbox = ANY($3::text[])', [postKey, activityId, [...inboxes]]);
    },
    async addRemoteObject({ objectId, actorId, comment }) {
      await state.query(
        `INSERT INTO activitypub_remote_objects (object_id, actor_id, slug, lang, comment_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (object_id) DO UPDATE SET actor_id = EXCLUDED.actor_id, slug = EXCLUDED.slug, lang = EXCLUDED.lang, comment_id = EXCLUDED.comment_id`,
        [objectId, actorId, comment.slug, comment.lang, comment.id],
      );
    },
    async remoteObject(objectId) {
      const { rows } = await state.query<RemoteObjectRow>(`SELECT ${REMOTE_COLUMNS} FROM activitypub_remote_objects WHERE object_id = $1`, [objectId]);
      return rows[0] && remoteObjectOf(rows[0]);
    },
    async objectsOf(actorId) {
      return (await state.query<RemoteObjectRow>(`SELECT ${REMOTE_COLUMNS} FROM activitypub_remote_objects WHERE actor_id = $1`, [actorId])).rows.map(remoteObjectOf);
    },
    async removeRemoteObject(objectId) {
      await state.query('DELETE FROM activitypub_remote_objects WHERE object_id = $1', [objectId]);
    },
  };
}
