// `postbox migrate --from-files` for webmentions (docs/comments.md "Where comments are kept"): the webmentions
// received in data_dir/comments/webmentions/ with their statuses (a pending one is verified by a replica after the
// move), and the record of those sent, so that the posts do not send them all again. A row there already is kept.
import type { Config } from '../../config/config.js';
import { commentsDirOf } from '../files/comment-files.js';
import { readWebmentionInboxFiles } from '../files/webmention-inbox-files.js';
import { readWebmentionLedgerFile } from '../files/webmention-ledger.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';

export async function importWebmentionsFromFiles(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount> {
  // Where the records are does not depend on the configuration beyond data_dir.
  void config;
  const folder = commentsDirOf(dataDir);
  const received = await readWebmentionInboxFiles(folder);
  const sent = Object.entries(await readWebmentionLedgerFile(folder)).flatMap(([version, { change, sent: targets }]) => targets.map((target) => ({ version, change, target })));
  return state.transaction(async (query) => {
    let copied = 0;
    for (const mention of received) {
      const { rowCount } = await query(
        `INSERT INTO blog_webmentions_received (id, source, target, slug, lang, received_at, status, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
        [mention.id, mention.source, mention.target, mention.slug, mention.lang, new Date(mention.receivedAt), mention.status, mention.status === 'refused' ? mention.reason : null],
      );
      copied += rowCount ?? 0;
    }
    for (const row of sent) {
      const { rowCount } = await query('INSERT INTO blog_webmentions_sent (version, change, target) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [row.version, row.change, row.target]);
      copied += rowCount ?? 0;
    }
    return { copied, skipped: received.length + sent.length - copied };
  });
}
