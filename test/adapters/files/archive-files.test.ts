// The inbox's view of an archive: pages newest first read from the end, search, one entry, counts per day, the
// CSV walk, and the removal of a line while submissions keep arriving (no line lost, none doubled).
import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { searchTermsOf } from '../../../src/admin/inbox/inbox-entry.js';
import { countArchiveByDay, readArchiveEntries, readArchiveEntry, readArchivePage, removeArchiveLine } from '../../../src/adapters/files/archive-files.js';
import { createJsonlFiles } from '../../../src/kit/files/jsonl.js';
import { readLinesBackward } from '../../../src/kit/files/lines-backward.js';
import { createTempDir } from '../../support/temp-dir.js';

function line(index: number, extra: Record<string, string> = {}): Record<string, string> {
  const day = String(1 + (index % 28)).padStart(2, '0');
  return { received_at: `2026-02-${day}T10:00:00.000Z`, form: '/contact', type: 'contact', name: `Sender ${index}`, email: `s${index}@example.org`, message: `Message number ${index}`, ...extra };
}

/** The /contact form's view of `file`. */
const contact = (file: string) => ({ file, form: '/contact' });

describe('an archive in the inbox', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  async function archiveOf(lines: unknown[]): Promise<string> {
    const temp = await createTempDir('archive');
    cleanups.push(temp.remove);
    const file = path.join(temp.dir, 'contact.jsonl');
    await writeFile(file, lines.map((value) => `${JSON.stringify(value)}\n`).join(''));
    return file;
  }

  it('reads lines backward exactly as they are, across chunk edges and multi-byte characters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: 'grapheme', maxLength: 40_000 }).map((text) => text.replace(/\n/g, ' ')), { maxLength: 12 }), async (texts) => {
        const temp = await createTempDir('backward');
        try {
          const file = path.join(temp.dir, 'lines');
          await writeFile(file, texts.map((text) => `${text}\n`).join(''));
          const read: string[] = [];
          for await (const found of readLinesBackward(file)) read.push(found.text);
          assert.deepEqual(read, texts.filter((text) => text !== '').reverse());
        } finally {
          await temp.remove();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('pages newest first, 50 a page, and knows whether there is a next page', async () => {
    const file = await archiveOf(Array.from({ length: 120 }, (_, index) => line(index)));
    const first = await readArchivePage(contact(file), { page: 1, size: 50, terms: [] });
    assert.equal(first.entries.length, 50);
    assert.equal(first.entries[0]!.fields.name, 'Sender 119');
    assert.equal(first.hasNext, true);
    const third = await readArchivePage(contact(file), { page: 3, size: 50, terms: [] });
    assert.deepEqual(third.entries.map((entry) => entry.fields.name), Array.from({ length: 20 }, (_, index) => `Sender ${19 - index}`));
    assert.equal(third.hasNext, false);
  });

  it('searches every field case-insensitively, every term at once, skipping lines that are not JSON objects', async () => {
    const file = await archiveOf([line(1, { message: 'Bonjour, ÉTÉ à Paris' }), line(2, { message: 'été' }), 'not an object', line(3)]);
    await appendFile(file, '{torn\n');
    const page = await readArchivePage(contact(file), { page: 1, size: 50, terms: searchTermsOf('été paris') });
    assert.deepEqual(page.entries.map((entry) => entry.fields.name), ['Sender 1']);
    assert.equal((await readArchivePage(contact(file), { page: 1, size: 50, terms: searchTermsOf('S3@EXAMPLE') })).entries[0]!.fields.email, 's3@example.org');
  });

  it('finds one entry by its id and counts submissions per day', async () => {
    const file = await archiveOf([line(0), line(1), line(29)]);
    const [newest] = (await readArchivePage(contact(file), { page: 1, size: 1, terms: [] })).entries;
    assert.equal((await readArchiveEntry(contact(file), newest!.id))?.fields.name, 'Sender 29');
    assert.equal(await readArchiveEntry(contact(file), '0-000000000000'), undefined);
    const days = await countArchiveByDay(contact(file), 30, Date.parse('2026-02-28T23:00:00Z'));
    assert.equal(days.length, 30);
    assert.equal(days.at(-1)!.day, '2026-02-28');
    assert.deepEqual(days.filter((day) => day.count > 0), [
      { day: '2026-02-01', count: 1 },
      { day: '2026-02-02', count: 2 },
    ]);
  });

  it('walks every entry oldest first for the export', async () => {
    const file = await archiveOf([line(0), line(1)]);
    const names: string[] = [];
    for await (const entry of readArchiveEntries(contact(file))) names.push(entry.fields.name!);
    assert.deepEqual(names, ['Sender 0', 'Sender 1']);
    const none: unknown[] = [];
    for await (const entry of readArchiveEntries(contact(path.join(path.dirname(file), 'missing.jsonl')))) none.push(entry);
    assert.deepEqual(none, []);
  });

  it('removes one line while 20 submissions are appended at the same moment: all 20 stay, once each', async () => {
    const file = await archiveOf(Array.from({ length: 200 }, (_, index) => line(index)));
    const files = createJsonlFiles();
    const victim = (await readArchivePage(contact(file), { page: 2, size: 50, terms: [] })).entries[7]!;
    const arriving = Array.from({ length: 20 }, (_, index) => line(1000 + index));
    const [removed] = await Promise.all([removeArchiveLine(contact(file), victim.id, files.exclusive), ...arriving.map((record) => files.append(file, record))]);
    assert.equal(removed, 'removed');
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').map((text) => JSON.parse(text) as Record<string, string>);
    const names = lines.map((record) => record.name);
    assert.equal(lines.length, 219);
    assert.equal(new Set(names).size, 219, 'no line twice');
    assert.ok(!names.includes(victim.fields.name), 'the removed one is gone');
    for (const record of arriving) assert.ok(names.includes(record.name), `${record.name} arrived`);
    assert.equal(await removeArchiveLine(contact(file), victim.id, files.exclusive), 'missing', 'twice is harmless');
  });

  it('of two identical lines removes the one the id names', async () => {
    const same = line(5);
    const file = await archiveOf([same, line(6), same]);
    const page = await readArchivePage(contact(file), { page: 1, size: 50, terms: [] });
    const newestCopy = page.entries[0]!;
    assert.equal(await removeArchiveLine(contact(file), newestCopy.id, createJsonlFiles().exclusive), 'removed');
    const names = (await readFile(file, 'utf8')).trimEnd().split('\n').map((text) => (JSON.parse(text) as Record<string, string>).name);
    assert.deepEqual(names, ['Sender 5', 'Sender 6']);
  });

  it('answers missing for a line of an archive that is gone, leaving no temp file behind', async () => {
    const file = await archiveOf([line(1)]);
    const [entry] = (await readArchivePage(contact(file), { page: 1, size: 1, terms: [] })).entries;
    await rm(file);
    assert.equal(await removeArchiveLine(contact(file), entry!.id, createJsonlFiles().exclusive), 'missing');
    assert.deepEqual(await readdir(path.dirname(file)), []);
  });

  it('finds and removes by id a line longer than one read chunk, the copy the id names', async () => {
    const long = line(7, { message: 'x'.repeat(100_000) });
    const file = await archiveOf([long, line(8), long]);
    const [newest] = (await readArchivePage(contact(file), { page: 1, size: 1, terms: [] })).entries;
    assert.equal((await readArchiveEntry(contact(file), newest!.id))?.fields.message?.length, 100_000);
    assert.equal(await removeArchiveLine(contact(file), newest!.id, createJsonlFiles().exclusive), 'removed');
    const names = (await readFile(file, 'utf8')).trimEnd().split('\n').map((text) => (JSON.parse(text) as Record<string, string>).name);
    assert.deepEqual(names, ['Sender 7', 'Sender 8']);
  });

  it('keeps to the lines of its form in an archive two forms share', async () => {
    const file = await archiveOf([line(1), line(2, { form: '/feedback', type: 'feedback' }), line(3)]);
    const page = await readArchivePage(contact(file), { page: 1, size: 50, terms: [] });
    assert.deepEqual(page.entries.map((entry) => entry.fields.name), ['Sender 3', 'Sender 1']);
    const feedback = { file, form: '/feedback' };
    const [other] = (await readArchivePage(feedback, { page: 1, size: 50, terms: [] })).entries;
    assert.equal(other?.fields.name, 'Sender 2');
    assert.equal(await readArchiveEntry(contact(file), other!.id), undefined, "another form's line is not this form's");
    assert.equal(await removeArchiveLine(contact(file), other!.id, createJsonlFiles().exclusive), 'missing');
    const days = await countArchiveByDay(contact(file), 30, Date.parse('2026-02-28T23:00:00Z'));
    assert.equal(days.reduce((sum, day) => sum + day.count, 0), 2);
    const names: string[] = [];
    for await (const entry of readArchiveEntries(feedback)) names.push(entry.fields.name!);
    assert.deepEqual(names, ['Sender 2']);
  });
});
