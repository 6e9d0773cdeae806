// The inbox's reader over data_dir/<archive> files (the files backend): src/adapters/files/archive-files.ts does the
// reading; a removal rewrites the file while the forms service's appends in this process wait (`exclusive`).
import path from 'node:path';
import type { ArchiveOfForm, ArchiveReader } from '../../admin/inbox/archive-reader.js';
import { countArchiveByDay, readArchiveEntries, readArchiveEntry, readArchivePage, removeArchiveLine, type FormArchive } from './archive-files.js';
import type { FileExclusive } from '../../kit/files/jsonl.js';

export function createFileArchiveReader(dataDir: string, exclusive: FileExclusive): ArchiveReader {
  const fileOf = (of: ArchiveOfForm): FormArchive => ({ file: path.join(dataDir, of.archive), form: of.form });
  return {
    readPage: (of, options) => readArchivePage(fileOf(of), options),
    readEntry: (of, id) => readArchiveEntry(fileOf(of), id),
    readEntries: (of) => readArchiveEntries(fileOf(of)),
    remove: (of, id) => removeArchiveLine(fileOf(of), id, exclusive),
    countByDay: (of, days, now) => countArchiveByDay(fileOf(of), days, now),
  };
}
