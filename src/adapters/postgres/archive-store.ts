// The form archive in PostgreSQL (docs/configuration.md "[state]"): one row per accepted submission, inserted before
// anything is sent, as the files backend appends its line. The row is committed when the INSERT resolves.
import type { ArchiveStore } from '../../ports.js';
import type { PostgresState } from './state.js';

export function createPostgresArchiveStore(state: PostgresState): ArchiveStore {
  return {
    async append(archive, line) {
      await state.query('INSERT INTO archives (archive, form, received_at, data) VALUES ($1, $2, $3, $4)', [archive, line.form, line.received_at, JSON.stringify(line)]);
    },
  };
}
