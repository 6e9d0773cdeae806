// The inbox of /admin over a temp data_dir, through the admin's own guard (light-my-request, and a real socket for
// the streamed export): pages newest first, search, one submission, hostile values shown as text and defused in
// the CSV (read back by csv-parse), deletion with and without CSRF, unknown forms and ids, and a 100,000-line export.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { createInboxPages } from '../../src/admin/inbox-pages/inbox-pages.js';
import { createFileArchiveReader } from '../../src/adapters/files/archive-reader-files.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import { createJsonlFiles } from '../../src/kit/files/jsonl.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs, type LogCapture } from '../support/log-capture.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, signIn, startTestAdmin, type TestAdmin } from './admin-app.js';

interface Sent {
  name?: string;
  email: string;
  service?: string;
  message?: string;
}

/** An archive line as the forms service writes it (src/forms/archive.ts). */
function archiveLine(sent: Sent, index: number, form = '/contact'): string {
  const receivedAt = new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString().replace('.000Z', 'Z');
  return `${JSON.stringify({ received_at: receivedAt, form, type: 'contact', ...sent })}\n`;
}

const STORED_FILE_ID = 'f'.repeat(24);
const STORED_FILE = Buffer.from('%PDF-1.4\n%%EOF\n');

const HOSTILE: Sent[] = [
  { name: '<script>alert("x")</script>', email: '=HYPERLINK("https://evil.example","click")@example.org', service: '@SUM(A1:A9)', message: '+1 and "quotes", commas\nand a second line' },
  { name: '-2+3', email: 'tab@example.org', service: '\t=cmd', message: '=1+1' },
  { name: 'Plain Ann', email: 'ann@example.org', message: 'Ünïcode, 日本語 and emoji 🎉' },
];

/** The text of an HTML page, tags dropped and the entities preact writes decoded. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A cell of the export as the person sent it: the ' that defuses a formula taken off. */
const unprefixed = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

describe('the inbox pages', () => {
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let dataDir: string;
  let logs: LogCapture;
  let session: { csrf: string; cookie: string };
  let removedAttachments: string[];

  beforeEach(async () => {
    const temp = await createTempDir('inbox-pages');
    remove = temp.remove;
    dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const config = loadTestConfig(
      {
        data_dir: dataDir,
        mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com' },
        forms: [
          { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
          { path: '/forms/feedback', type: 'feedback', allowed_origins: ['https://example.com'], archive: 'feedback.jsonl' },
          { path: '/plain', type: 'generic', allowed_origins: ['https://example.com'] },
        ],
      },
      dataDir,
    );
    logs = captureLogs();
    removedAttachments = [];
    const removeAttachments = async (ids: readonly string[]) => {
      removedAttachments.push(...ids);
    };
    const readAttachment = async (id: string) => (id === STORED_FILE_ID ? Readable.from([STORED_FILE]) : undefined);
    const pages = [
      ...createPlaceholderPages(),
      ...createInboxPages({ forms: config.forms, archives: createFileArchiveReader(dataDir, createJsonlFiles().exclusive), logger: logs.logger, removeAttachments, readAttachment }),
    ];
    app = await startTestAdmin({ dataDir, pages });
    session = await signIn(app);
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });
  const post = (url: string, fields: Record<string, string> = {}) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie }));
  const writeArchive = (lines: string[], file = 'contact.jsonl') => writeFile(path.join(dataDir, file), lines.join(''));
  const submissionLinks = (html: string) => [...html.matchAll(/href="(\/admin\/inbox\/contact\/\d+-[0-9a-f]{12})"/g)].map((match) => match[1]!);

  it('lists the forms with an archive, says how to turn one on, and is in the navigation', async () => {
    const page = await get('/admin/inbox');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /href="\/admin\/inbox\/contact">\/contact<\/a>/);
    assert.match(page.body, /href="\/admin\/inbox\/forms:feedback">\/forms\/feedback<\/a>/);
    assert.match(textOf(page.body), /These forms send their submissions on without keeping them: \/plain\. .*archive = "<file>\.jsonl"/s);
    assert.match(page.body, /aria-current="page"[^>]*>Inbox<\/a>/);
    const empty = await get('/admin/inbox/forms:feedback');
    assert.equal(empty.statusCode, 200, 'an archive not written yet is an empty inbox');
    assert.match(textOf(empty.body), /No submissions yet\./);
  });

  it('pages 50 newest first with links both ways, and searches every word, case-insensitively', async () => {
    const lines = Array.from({ length: 120 }, (_, index) =>
      archiveLine({ name: `Person ${index}`, email: `p${index}@example.org`, message: index % 10 === 3 ? `A Blue Widget order ${index}` : `Order ${index}, red` }, index),
    );
    await writeArchive(lines);
    const first = await get('/admin/inbox/contact');
    assert.equal(first.statusCode, 200);
    const names = (html: string) => [...textOf(html).matchAll(/Person (\d+)/g)].map((match) => Number(match[1]));
    assert.deepEqual(names(first.body), Array.from({ length: 50 }, (_, index) => 119 - index));
    assert.match(first.body, /href="\/admin\/inbox\/contact\?page=2" rel="next"/);
    assert.doesNotMatch(first.body, /rel="prev"/);
    const third = await get('/admin/inbox/contact?page=3');
    assert.deepEqual(names(third.body), Array.from({ length: 20 }, (_, index) => 19 - index));
    assert.match(third.body, /href="\/admin\/inbox\/contact\?page=2" rel="prev"/);
    assert.doesNotMatch(third.body, /rel="next"/);
    assert.match(textOf((await get('/admin/inbox/contact?page=4')).body), /No submissions on this page\./);
    assert.deepEqual(names((await get('/admin/inbox/contact?page=nonsense')).body).length, 50, 'a page that is not a number is the first');

    const found = await get(`/admin/inbox/contact?q=${encodeURIComponent('  bLUE   widget ')}`);
    assert.deepEqual(names(found.body), [113, 103, 93, 83, 73, 63, 53, 43, 33, 23, 13, 3]);
    assert.match(found.body, /<input type="text" id="inbox-search" name="q" value="  bLUE   widget "/);
    assert.match(textOf(found.body), /A Blue Widget order 113/);
    const none = await get('/admin/inbox/contact?q=blue+gadget');
    assert.match(textOf(none.body), /No submission matches "blue gadget"\./);

    const many = Array.from({ length: 60 }, (_, index) => archiveLine({ email: `x${index}@example.org`, message: `needle ${index}` }, index));
    await writeArchive([...lines, ...many]);
    const searchedFirst = await get('/admin/inbox/contact?q=needle');
    assert.match(searchedFirst.body, /href="\/admin\/inbox\/contact\?q=needle&amp;page=2" rel="next"/, 'the search is kept across pages');
    assert.equal(submissionLinks((await get('/admin/inbox/contact?q=needle&page=2')).body).length, 10);
  });

  it('shows a hostile submission as text, in the list and in full', async () => {
    await writeArchive(HOSTILE.map((sent, index) => archiveLine(sent, index)));
    const list = await get('/admin/inbox/contact');
    assert.doesNotMatch(list.body, /<script>/);
    assert.match(list.body, /&lt;script>alert\(&quot;x&quot;\)&lt;\/script>/);
    const [, , hostileLink] = submissionLinks(list.body);
    const full = await get(hostileLink!);
    assert.equal(full.statusCode, 200);
    assert.doesNotMatch(full.body, /<script>/);
    const text = textOf(full.body);
    for (const value of [HOSTILE[0]!.name!, HOSTILE[0]!.email, HOSTILE[0]!.service!, HOSTILE[0]!.message!]) assert.ok(text.includes(value), value);
    assert.match(text, /1 Jan 2026, 00:00:00/);
    assert.match(full.body, /<time datetime="2026-01-01T00:00:00Z">/);
  });

  it('exports every submission as RFC 4180 CSV with a BOM, formulas defused, values equal to what was sent', async () => {
    await writeArchive(HOSTILE.map((sent, index) => archiveLine(sent, index)));
    const response = await get('/admin/inbox/contact/export.csv');
    assert.equal(response.statusCode, 200);
    assert.match(response.headers['content-type'] as string, /^text\/csv; charset=utf-8/);
    assert.equal(response.headers['content-disposition'], 'attachment; filename="contact-submissions.csv"');
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.ok(response.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'UTF-8 byte order mark');
    assert.match(response.body, /^\uFEFFreceived_at,name,email,service,message\r\n/);
    assert.ok(response.body.endsWith('\r\n'));

    const rows = parse(response.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, HOSTILE.length);
    rows.forEach((row, index) => {
      const sent = HOSTILE[index]!;
      for (const column of ['name', 'email', 'service', 'message'] as const) {
        const cell = row[column]!;
        assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `${column} of row ${index} cannot start a formula`);
        assert.equal(unprefixed(cell), sent[column] ?? '', `${column} of row ${index}`);
      }
    });
    assert.equal(rows[0]!.email, `'${HOSTILE[0]!.email}`);
    assert.equal(rows[1]!.service, `'\t=cmd`);
    assert.equal(rows[0]!.received_at, '2026-01-01T00:00:00Z');
    assert.equal((await get('/admin/inbox/forms:feedback/export.csv')).body, '\uFEFFreceived_at,name,email,service,message\r\n', 'an empty archive is the header');
  });

  it('lists a submission\'s files and downloads them as attachments, never a removed one (docs/attachments.md "In /admin")', async () => {
    const files = [
      { id: STORED_FILE_ID, filename: '<b>cv</b>.pdf', type: 'application/pdf', size: STORED_FILE.length },
      { id: 'r'.repeat(24), filename: 'eicar.txt', type: 'text/plain', size: 68, removed: true },
    ];
    await writeArchive([`${JSON.stringify({ received_at: '2026-01-01T00:05:00Z', form: '/contact', type: 'contact', email: 'bob@example.org', attachments: files })}\n`]);
    const [link] = submissionLinks((await get('/admin/inbox/contact')).body);
    const page = (await get(link!)).body;
    assert.match(page, new RegExp(`href="${link}/files/${STORED_FILE_ID}"`));
    assert.match(page, />&lt;b>cv&lt;\/b>\.pdf<\/a>/, 'the name is shown as text');
    assert.doesNotMatch(page, /eicar\.txt|rrrrrrrr/, 'a removed file is not offered');
    const download = await get(`${link}/files/${STORED_FILE_ID}`);
    assert.equal(download.statusCode, 200);
    assert.deepEqual(download.rawPayload, STORED_FILE);
    assert.equal(download.headers['content-type'], 'application/pdf');
    assert.match(String(download.headers['content-disposition']), /^attachment; filename="<b>cv<\/b>\.pdf"/);
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
    assert.equal((await get(`${link}/files/${'r'.repeat(24)}`)).statusCode, 404);
    assert.equal((await get(`${link}/files/${'x'.repeat(24)}`)).statusCode, 404, 'only the files its line lists');
  });

  it('deletes the files of a submission with it (docs/attachments.md "Storage")', async () => {
    const files = [{ id: 'a'.repeat(24), filename: 'cv.pdf', type: 'application/pdf', size: 100 }];
    await writeArchive([archiveLine({ email: 'ann@example.org' }, 0), `${JSON.stringify({ received_at: '2026-01-01T00:05:00Z', form: '/contact', type: 'contact', email: 'bob@example.org', attachments: files })}\n`]);
    const [newest, older] = submissionLinks((await get('/admin/inbox/contact')).body);
    assert.equal((await post(`${older}/delete`, { confirm: 'yes' })).statusCode, 303);
    assert.deepEqual(removedAttachments, [], 'a line without files removes none');
    assert.equal((await post(`${newest}/delete`, { confirm: 'yes' })).statusCode, 303);
    assert.deepEqual(removedAttachments, ['a'.repeat(24)]);
  });

  it('deletes a submission with the CSRF token only, says so, and logs the form and id without personal data', async () => {
    await writeArchive(HOSTILE.map((sent, index) => archiveLine(sent, index)));
    const before = await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8');
    const [newest] = submissionLinks((await get('/admin/inbox/contact')).body);
    const full = await get(newest!);
    assert.match(full.body, new RegExp(`<form method="post" action="${newest}/delete"`));
    assert.match(full.body, /name="csrf_token"/);

    const forged = await app.inject(formPost(`${newest}/delete`, {}, { cookie: session.cookie }));
    assert.equal(forged.statusCode, 403);
    assert.equal(await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8'), before, 'nothing changes without the token');
    const otherSite = await app.inject(formPost(`${newest}/delete`, { csrf_token: session.csrf }, { cookie: session.cookie, origin: 'https://evil.example' }));
    assert.equal(otherSite.statusCode, 403);

    const asked = await post(`${newest}/delete`);
    assert.equal(asked.statusCode, 200, 'a delete asks first');
    assert.match(asked.body, /The submission received on <time datetime="[0-9T:-]+Z">\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d<\/time>/, 'the time as every admin page writes it, not raw ISO');
    assert.equal(await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8'), before, 'nothing deleted before the confirmation');
    const deleted = await post(`${newest}/delete`, { confirm: 'yes' });
    assert.equal(deleted.statusCode, 303);
    assert.equal(deleted.headers.location, '/admin/inbox/contact?notice=deleted');
    const after = await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8');
    assert.equal(after, HOSTILE.slice(0, 2).map((sent, index) => archiveLine(sent, index)).join(''));
    assert.match(textOf((await get('/admin/inbox/contact?notice=deleted')).body), /The submission was deleted\./);

    const id = newest!.split('/').at(-1);
    const logged = logs.lines().filter((line) => line.event === 'admin_submission_deleted');
    assert.deepEqual(logged.map(({ event, user, form, id: lineId }) => ({ event, user, form, id: lineId })), [{ event: 'admin_submission_deleted', user: 'jane', form: '/contact', id }]);
    assert.doesNotMatch(logs.text(), /ann@example\.org|Plain Ann/, 'nothing the person sent reaches the log');

    const again = await post(`${newest}/delete`, { confirm: 'yes' });
    assert.equal(again.headers.location, '/admin/inbox/contact?notice=missing');
    assert.match(textOf((await get('/admin/inbox/contact?notice=missing')).body), /That submission was already deleted\./);
    assert.equal((await get(newest!)).statusCode, 404);
  });

  it('answers 404 for an unknown form, a form without archive, and an unknown or malformed id', async () => {
    await writeArchive(HOSTILE.map((sent, index) => archiveLine(sent, index)));
    for (const url of ['/admin/inbox/nothing', '/admin/inbox/plain', '/admin/inbox/forms/feedback', '/admin/inbox/contact/0-000000000000', '/admin/inbox/contact/not-an-id', '/admin/inbox/contact/export.csv/x']) {
      assert.equal((await get(url)).statusCode, 404, url);
    }
    assert.equal((await post('/admin/inbox/nothing/0-000000000000/delete')).statusCode, 404);
    assert.equal((await post('/admin/inbox/contact/0-000000000000')).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/inbox/contact' })).statusCode, 303, 'signed out: to the sign-in page');
  });

  it('streams the export of a 100,000-line archive chunked, and pages it from the end', async () => {
    const lines: string[] = [];
    for (let index = 0; index < 100_000; index += 1) lines.push(archiveLine({ name: `Person ${index}`, email: `p${index}@example.org`, message: `Message number ${index}` }, index));
    await writeArchive(lines);
    const first = await get('/admin/inbox/contact');
    assert.match(textOf(first.body), /Person 99999/);
    assert.equal(submissionLinks(first.body).length, 50);

    const server: Server = createServer(app.listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/admin/inbox/contact/export.csv`, { headers: { cookie: session.cookie } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('transfer-encoding'), 'chunked');
      assert.equal(response.headers.get('content-length'), null);
      const rows = parse(Buffer.from(await response.arrayBuffer()), { bom: true, columns: true }) as Array<Record<string, string>>;
      assert.equal(rows.length, 100_000);
      assert.equal(rows[0]!.name, 'Person 0');
      assert.equal(rows[99_999]!.message, 'Message number 99999');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
