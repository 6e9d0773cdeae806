// What `postbox migrate --from-files` copies from data_dir into PostgreSQL (contract section 8), one importer per
// kind of record, in this order. Each is idempotent: a record copied before is recognised and skipped, so the
// command can run again after an interruption, or after the files grew.
import type { Config } from '../../config/config.js';
import type { PostgresState } from './state.js';

/** What one importer did: records new in the database now, and records it found there already. */
export interface ImportCount {
  copied: number;
  skipped: number;
}

export interface FileImporter {
  /** What it copies, as the command prints it ("form archives"). */
  name: string;
  run(dataDir: string, config: Config, state: PostgresState): Promise<ImportCount>;
}

export const FILE_IMPORTERS: readonly FileImporter[] = [];
