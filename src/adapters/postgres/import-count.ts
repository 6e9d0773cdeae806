// What one importer of `postbox migrate --from-files` did (src/adapters/postgres/file-importers.ts).
export interface ImportCount {
  /** Records now in PostgreSQL that were not before. */
  copied: number;
  /** Records already there (an earlier run), and lines that are no record (torn or foreign). */
  skipped: number;
}
