// The blog's comments in PostgreSQL (docs/comments.md "Where comments are kept"), shared by every replica: the
// tables of schema/comments.ts and the threads' stamps of schema/comment-thread-stamps.ts. Every change is one
// statement, so replicas need no lock; the webmentions received
// are in webmention-inbox.ts, those queued in webmention-ledger.ts.
// A database that cannot be reached rejects with UnavailableError("postgres") (state.ts), as every store does.
import type { CommentKind, CommentStatus, CommentStore, StoredComment } from '../../comments/comment-store.js';
import { comparableEmailAddress } from '../../kit/email-address.js';
import type { Config } from '../../config/config.js';
import { readCommentFiles } from '../files/comment-files.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';
import { createPostgresWebmentionInbox } from './webmention-inbox.js';
import { createPostgresWebmentionLedger } from './webmention-ledger.js';

interface Row {
  id: string;
  slug: string;
  lang: string;
  parent: string | null;
  author_name: string;
  author_url: string | null;
  email: string | null;
  body: string;
  html: string;
  created_at: Date;
  status: CommentStatus;
  reasons: string[] | null;
  by_user: string | null;
  kind: CommentKind;
  source: string | null;
}

const COLUMNS = 'id, slug, lang, parent, author_name, author_url, email, body, html, created_at, status, reasons, by_user, kind, source';

function commentOf(row: Row): StoredComment {
  return {
    id: row.id,
    slug: row.slug,
    lang: row.lang,
    parent: row.parent,
    author: { name: row.author_name, url: row.author_url },
    email: row.email,
    text: row.body,
    html: row.html,
    createdAt: row.created_at.toISOString(),
    status: row.status,
    kind: row.kind,
    ...(row.source === null ? {} : { source: row.source }),
    ...(row.reasons === null ? {} : { reasons: row.reasons }),
    ...(row.by_user === null ? {} : { byUser: row.by_user }),
  };
}

const INSERT = `INSERT INTO blog_comments (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`;

/** The values of INSERT for `comment`. */
function valuesOf(comment: StoredComment): unknown[] {
  return [
    comment.id,
    comment.slug,
    comment.lang,
    comment.parent,
    comment.author.name,
    comment.author.url,
    comment.email,
    comment.text,
    comment.html,
    new Date(comment.createdAt),
    comment.status,
    comment.reasons ?? null,
    comment.byUser ?? null,
    comment.kind,
    comment.source ?? null,
  ];
}

/**
 * `postbox migrate --from-files`: the comments and approved addresses of data_dir into PostgreSQL in one
 * transaction; a comment whose id is there already is skipped, so running it again copies nothing new.
 */
export async function importCommentsFromFiles(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount> {
  // Where the records are does not depend on the configuration beyond data_dir.
  void config;
  const { comments, addresses } = await readCommentFiles(dataDir);
  return state.transaction(async (query) => {
    let copied = 0;
    for (const comment of comments) {
      const { rowCount } = await query(`${INSERT} ON CONFLICT (id) DO NOTHING`, valuesOf(comment));
      copied += rowCount ?? 0;
    }
    for (const address of addresses) {
      await query('INSERT INTO blog_comment_approved_addresses (address) VALUES ($1) ON CONFLICT (address) DO NOTHING', [address]);
    }
    return { copied, skipped: comments.length - copied };
  });
}

export function createPostgresCommentStore(state: PostgresState): CommentStore {
  return {
    async add(comment) {
      await state.query(INSERT, valuesOf(comment));
    },
    async listVersion({ slug, lang }) {
      const { rows } = await state.query<Row>(`SELECT ${COLUMNS} FROM blog_comments WHERE slug = $1 AND lang = $2 ORDER BY created_at, id`, [slug, lang]);
      return rows.map(commentOf);
    },
    // Bumped by the trigger of migration 20 in every change's own statement (schema/comment-thread-stamps.ts); a
    // version never changed since then has no row.
    async threadStamp({ slug, lang }) {
      const { rows } = await state.query<{ stamp: string }>('SELECT stamp FROM blog_comment_thread_stamps WHERE slug = $1 AND lang = $2', [slug, lang]);
      return rows[0]?.stamp ?? '0';
    },
    async listAll() {
      const { rows } = await state.query<Row>(`SELECT ${COLUMNS} FROM blog_comments ORDER BY created_at, id`);
      return rows.map(commentOf);
    },
    async setStatus({ slug, lang }, id, status) {
      const { rows } = await state.query<Row>(`UPDATE blog_comments SET status = $4 WHERE slug = $1 AND lang = $2 AND id = $3 RETURNING ${COLUMNS}`, [slug, lang, id, status]);
      return rows[0] && commentOf(rows[0]);
    },
    async edit({ slug, lang }, id, text, html) {
      const { rows } = await state.query<Row>(`UPDATE blog_comments SET body = $4, html = $5 WHERE slug = $1 AND lang = $2 AND id = $3 RETURNING ${COLUMNS}`, [slug, lang, id, text, html]);
      return rows[0] && commentOf(rows[0]);
    },
    async remove({ slug, lang }, id) {
      const { rowCount } = await state.query('DELETE FROM blog_comments WHERE slug = $1 AND lang = $2 AND id = $3', [slug, lang, id]);
      return rowCount === 1;
    },
    async isApprovedAddress(address) {
      const { rowCount } = await state.query('SELECT 1 FROM blog_comment_approved_addresses WHERE address = $1', [comparableEmailAddress(address)]);
      return rowCount === 1;
    },
    async addApprovedAddress(address) {
      await state.query('INSERT INTO blog_comment_approved_addresses (address) VALUES ($1) ON CONFLICT (address) DO NOTHING', [comparableEmailAddress(address)]);
    },
    webmentions: createPostgresWebmentionInbox(state),
    sentWebmentions: createPostgresWebmentionLedger(state),
  };
}
