// What `postbox migrate --from-files` copies from data_dir into PostgreSQL (docs/configuration.md "[state]"), one
// importer per kind of record, in this order. Each is idempotent: a record copied before is recognised and skipped, so
// the command can run again after an interruption, or after the files grew.
import type { Config } from '../../config/config.js';
import { importAdminSessionsFromFiles, importArchivesFromFiles } from './import-admin-files.js';
import type { ImportCount } from './import-count.js';
import { importCampaignsFromFiles } from './import-campaigns.js';
import { importNewsletterFromFiles } from './newsletter-import.js';
import { importQueueFromFiles } from './queue-import.js';
import type { PostgresState } from './state.js';
import { importSuppressionsFromFiles } from './suppressions-import.js';
import { importCommentsFromFiles } from './comment-store.js';
import { importWebmentionsFromFiles } from './import-webmentions.js';
import { importAutomationRunsFromFiles } from './automation-store.js';

export interface FileImporter {
  /** What it copies, as the command prints it ("form archives"). */
  name: string;
  run(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount>;
}

export const FILE_IMPORTERS: readonly FileImporter[] = [
  { name: 'form archives', run: importArchivesFromFiles },
  { name: 'admin sessions', run: importAdminSessionsFromFiles },
  { name: 'newsletter records', run: (dataDir, config, state) => importNewsletterFromFiles(dataDir, config, state) },
  { name: 'campaigns', run: importCampaignsFromFiles },
  { name: 'newsletter automation runs', run: importAutomationRunsFromFiles },
  { name: 'mail queue', run: (dataDir, config, state) => importQueueFromFiles(dataDir, config, state) },
  { name: 'suppression list', run: importSuppressionsFromFiles },
  { name: 'blog comments', run: importCommentsFromFiles },
  { name: 'webmentions', run: importWebmentionsFromFiles },
];
