// `postbox migrate --from-files`, campaigns: data_dir/campaigns copied into PostgreSQL, each campaign whole
// (request, body, recipients, journal) in one transaction, and the claims. A campaign already in the database is
// left as it is, so running it again copies nothing. Meant for a stopped service: a journal line written after a
// campaign was copied is not copied later.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config/config.js';
import { campaignsDirOf, createCampaignFiles } from '../files/campaign-files.js';
import { insertRecipients } from './campaign-store.js';
import type { ImportCount } from './import-count.js';
import type { PostgresState } from './state.js';

/** `copied` and `skipped` count campaigns; a folder that cannot be read is neither (the files store leaves it out too). */
export async function importCampaignsFromFiles(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount> {
  // Where the campaigns are does not depend on the configuration beyond data_dir.
  void config;
  const campaignsDir = campaignsDirOf(dataDir);
  const files = createCampaignFiles(campaignsDir);
  let copied = 0;
  let skipped = 0;
  for (const request of await files.list()) {
    const [body, recipients, journal] = await Promise.all([files.readBody(request.id), files.readRecipients(request.id), files.readJournal(request.id)]);
    const inserted = await state.transaction(async (query) => {
      const row = await query(
        'INSERT INTO campaigns (id, form, slug, lang, request, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING',
        [request.id, request.form, request.slug, request.lang, JSON.stringify(request), JSON.stringify(body), request.created_at],
      );
      if (row.rowCount !== 1) return false;
      await insertRecipients(query, request.id, recipients);
      await query('INSERT INTO campaign_journal (campaign, line) SELECT $1, line::jsonb FROM unnest($2::text[]) WITH ORDINALITY AS journal (line, position) ORDER BY position', [
        request.id,
        journal.map((line) => JSON.stringify(line)),
      ]);
      return true;
    });
    if (inserted) copied += 1;
    else skipped += 1;
  }
  const claims = await readdir(path.join(campaignsDir, 'claims')).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  for (const key of claims.filter((name) => /^[0-9a-f]{32}$/.test(name))) {
    await state.query('INSERT INTO campaign_claims (key) VALUES ($1) ON CONFLICT (key) DO NOTHING', [key]);
  }
  return { copied, skipped };
}
