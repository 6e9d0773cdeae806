// data_dir/admin-sessions.json (docs/admin.md "Sessions"): read at start, replaced atomically on every change.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN_SESSIONS_FILE, type SessionFile } from '../../admin/sessions.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

/** The session file of `dataDir`; a missing file reads as no sessions. */
export function createSessionFile(dataDir: string): SessionFile {
  const file = path.join(dataDir, ADMIN_SESSIONS_FILE);
  return {
    read: () =>
      readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      }),
    write: (text) => writeFileAtomically(file, text),
  };
}
