// The form archive in files (`[state] backend = "files"`, the default): one JSON line per submission appended to
// data_dir/<archive>, the format docs/forms-api.md "Delivery" describes. An append resolves once its line is
// fsynced; lines of submissions that arrive while an fsync runs share the next one (src/kit/files/jsonl.ts).
import path from 'node:path';
import type { AppendLine, ArchiveStore } from '../../ports.js';

export function createFileArchiveStore(dataDir: string, appendLine: AppendLine): ArchiveStore {
  return {
    append: (archive, line) => appendLine(path.join(dataDir, archive), line),
  };
}
