// The Spam view of /admin (src/admin/spam-pages/) over the files quarantine of a temp data_dir, through the admin's
// own guard: the forms page counts what waits in each form's quarantine and the form's inbox links to it; the view
// lists a form's entries newest first, 50 a page, hostile values as text, with their reasons in words; "Not spam"
// goes through the real release (src/forms/spam/release.ts) and comes back with its notice (delivered, already
// handled, failed); without the CSRF token, or for an editor, nothing is released.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createFileArchiveReader } from '../../src/adapters/files/archive-reader-files.js';
import { createSpamFiles, spamDirOf } from '../../src/adapters/files/spam-files.js';
import { createAccounts } from '../../src/admin/accounts/accounts.js';
import { createInboxPages } from '../../src/admin/inbox-pages/inbox-pages.js';
import { createSpamPages, type SpamRelease } from '../../src/admin/spam-pages/spam-pages.js';
import { createPlaceholderPages } from '../../src/admin/views/placeholder-pages.js';
import type { FormConfig } from '../../src/config/config.js';
import type { SpamStore } from '../../src/forms/spam/quarantine.js';
import { createSpamRelease } from '../../src/forms/spam/release.js';
import type { Submission } from '../../src/forms/rules/submission.js';
import { createJsonlFiles } from '../../src/kit/files/jsonl.js';
import { loadTestConfig } from '../support/config.js';
import { captureLogs } from '../support/log-capture.js';
import { createMemoryAccountStore } from '../support/memory-accounts.js';
import { spamEntry, T0 } from '../support/spam-store-contract.js';
import { createTempDir } from '../support/temp-dir.js';
import { formPost, signIn, startSession, startTestAdmin, testHash, type TestAdmin } from './admin-app.js';

/** The text of an HTML page, tags dropped and the entities preact writes decoded. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

const HOSTILE = { name: '<script>alert("x")</script>', email: 'eve@example.org', message: '<img src=x onerror=alert(1)> and a second\nline' };

/** The ids of the rows' buttons ("Not spam", "Delete") of a page, in the order shown. */
const buttonIds = (html: string) => [...html.matchAll(/<input type="hidden" name="id" value="([^"]+)"/g)].map((match) => match[1]!);

describe('the Spam view', () => {
  let remove: () => Promise<void>;
  let app: TestAdmin;
  let store: SpamStore;
  let forms: readonly FormConfig[];
  let session: { csrf: string; cookie: string };
  /** What the accepted path was handed, and what it answers next. */
  let delivered: Array<{ form: string; submission: Submission; receivedAt: string }>;
  let delivery: 'accepted' | 'failed';
  let releases: Array<[string, string]>;
  let withRelease: boolean;

  const build = async () => {
    const temp = await createTempDir('spam-pages');
    remove = temp.remove;
    const dataDir = path.join(temp.dir, 'data');
    await mkdir(dataDir);
    const config = loadTestConfig(
      {
        data_dir: dataDir,
        server: { public_url: 'https://forms.example.com' },
        mail: { from: 'Example Forms <forms@example.com>', to: 'owner@example.com' },
        forms: [
          { path: '/contact', type: 'contact', allowed_origins: ['https://example.com'], archive: 'contact.jsonl' },
          { path: '/plain', type: 'generic', allowed_origins: ['https://example.com'] },
          { path: '/news/letter', type: 'newsletter', allowed_origins: ['https://example.com'], subscribers: 'subscribers.jsonl' },
        ],
      },
      dataDir,
    );
    forms = config.forms;
    store = createSpamFiles(spamDirOf(dataDir));
    const logs = captureLogs();
    const realRelease = createSpamRelease({
      store,
      formOf: (formPath) => forms.find((form) => form.path === formPath),
      acceptedPathOf: (form) => async (submission, receivedAt) => {
        if (delivery === 'failed') return { kind: 'refused', code: 'storage_failed' };
        delivered.push({ form: form.path, submission, receivedAt });
        return { kind: 'accepted' };
      },
      logger: logs.logger,
      clock: () => T0 + 3_600_000,
    });
    const release: SpamRelease = (id, by) => {
      releases.push([id, by]);
      return realRelease(id, by);
    };
    const hash = await testHash();
    const accounts = createAccounts([{ name: 'jane', password_hash: hash }], createMemoryAccountStore([{ name: 'ed', role: 'editor', passwordHash: hash, generation: 1, passkeys: [], createdAt: 0 }]));
    const pages = [
      ...createPlaceholderPages(),
      ...createInboxPages({ forms, archives: createFileArchiveReader(dataDir, createJsonlFiles().exclusive), spam: store, logger: logs.logger }),
      ...createSpamPages({ forms, store, clock: () => T0 + 86_400_000, release: withRelease ? release : undefined }),
    ];
    app = await startTestAdmin({ dataDir, pages, accounts });
    session = await signIn(app);
  };

  beforeEach(async () => {
    delivered = [];
    delivery = 'accepted';
    releases = [];
    withRelease = true;
    await build();
  });
  afterEach(async () => {
    await app.close();
    await remove();
  });

  const get = (url: string, cookie = session.cookie) => app.inject({ method: 'GET', url, headers: { cookie } });
  const notSpam = (url: string, fields: Record<string, string>) => app.inject(formPost(url, { csrf_token: session.csrf, ...fields }, { cookie: session.cookie }));

  it('counts what waits in every form’s quarantine on the forms page, and links each form’s inbox to its Spam view', async () => {
    await store.quarantine(spamEntry('/contact', 1));
    await store.quarantine(spamEntry('/contact', 2));
    await store.quarantine({ ...spamEntry('/news/letter', 3), submission: { email: 'bot@example.org' } });
    const page = await get('/admin/inbox');
    assert.equal(page.statusCode, 200);
    const text = textOf(page.body);
    assert.match(text, /\/contact contact 2 waiting in the spam of \/contact/);
    assert.match(text, /\/plain generic 0 waiting in the spam of \/plain/);
    assert.match(text, /\/news\/letter newsletter 1 waiting in the spam of \/news\/letter/);
    assert.match(page.body, /href="\/admin\/spam\/contact">2 waiting/);
    assert.match(page.body, /href="\/admin\/spam\/news:letter">1 waiting/);
    assert.match(page.body, /href="\/admin\/inbox\/contact">\/contact<\/a>/, 'the archived form still links to its inbox');
    assert.match(text, /These forms send their submissions on without keeping them: \/plain\./, 'a newsletter form is not one of them');

    const inbox = await get('/admin/inbox/contact');
    assert.match(inbox.body, /Spam: <a href="\/admin\/spam\/contact">2 waiting/);
  });

  it('lists a form’s quarantine newest first with time, sender, message as text and the reasons in words', async () => {
    await store.quarantine({ ...spamEntry('/contact', 1), reasons: ['proof_of_work', 'too_fast'] });
    await store.quarantine({ ...spamEntry('/contact', 2), reasons: ['replayed', 'links', 'disposable', 'language', 'words', 'captcha', 'expired'], submission: HOSTILE });
    await store.quarantine(spamEntry('/plain', 3));
    const page = await get('/admin/spam/contact');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /<h1>Spam of \/contact<\/h1>/);
    assert.match(page.body, /aria-current="page"[^>]*>Inbox<\/a>/);
    assert.doesNotMatch(page.body, /<script>|<img/, 'nothing the sender wrote becomes markup');
    assert.match(page.body, /&lt;script>alert\(&quot;x&quot;\)&lt;\/script>/);
    const text = textOf(page.body);
    assert.ok(text.indexOf('eve@example.org') < text.indexOf('sender1@example.org'), 'newest first');
    assert.match(text, /2 Nov 2026, 09:02 <script>alert\("x"\)<\/script> eve@example\.org <img src=x onerror=alert\(1\)> and a second line/);
    for (const words of [
      'proof of work used before',
      'more links than the form allows',
      'the address is at a disposable mail domain',
      'the message reads as none of the form’s languages',
      'a blocked word or phrase',
      'the captcha was missing or failed, or its provider could not be asked',
      'proof of work expired before it was sent',
      'no valid proof of work',
      'sent too soon after the form was loaded',
    ]) {
      assert.ok(text.includes(words), words);
    }
    assert.doesNotMatch(text, /sender3/, 'another form’s spam is not listed');
    assert.match(page.body, /href="\/admin\/inbox\/contact">The inbox of \/contact/);
    assert.equal(buttonIds(page.body).length, 2);
    assert.match(page.body, /<form method="post" action="\/admin\/spam\/contact" class="admin-inline-form"><input type="hidden" name="csrf_token"/);

    const plain = await get('/admin/spam/plain');
    assert.match(textOf(plain.body), /Sender 3/);
    assert.match(plain.body, /href="\/admin\/inbox">Back to the forms/, 'a form without an archive has no inbox to go back to');
    assert.match(textOf((await get('/admin/spam/news:letter')).body), /Nothing is waiting in the quarantine\./);
    for (const url of ['/admin/spam/nothing', '/admin/spam/contact/x', '/admin/spam/']) assert.equal((await get(url)).statusCode, 404, url);
  });

  it('pages 50 at a time by id, older and back to the newest', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 120; index += 1) ids.push(await store.quarantine(spamEntry('/contact', index)));
    const first = await get('/admin/spam/contact');
    assert.deepEqual(buttonIds(first.body), ids.slice(70).reverse());
    assert.match(textOf(first.body), /120 waiting, newest first/);
    const older = /href="(\/admin\/spam\/contact\?before=[0-9a-z]+)" rel="next"/.exec(first.body)?.[1];
    assert.ok(older);
    const second = await get(older);
    assert.deepEqual(buttonIds(second.body), ids.slice(20, 70).reverse());
    assert.match(second.body, /<a href="\/admin\/spam\/contact">Newest submissions<\/a>/);
    const third = await get(/href="(\/admin\/spam\/contact\?before=[0-9a-z]+)" rel="next"/.exec(second.body)![1]!);
    assert.deepEqual(buttonIds(third.body), ids.slice(0, 20).reverse());
    assert.doesNotMatch(third.body, /rel="next"/);
    assert.deepEqual(buttonIds((await get('/admin/spam/contact?before=%3Cnot-an-id%3E')).body), ids.slice(70).reverse(), 'a before that is no id is the first page');
  });

  it('"Not spam" delivers through the release and says so; a second click finds it handled', async () => {
    const kept = await store.quarantine(spamEntry('/contact', 1));
    const id = await store.quarantine({ ...spamEntry('/contact', 2), submission: HOSTILE });
    const answer = await notSpam('/admin/spam/contact', { id });
    assert.equal(answer.statusCode, 303);
    assert.equal(answer.headers.location, '/admin/spam/contact?notice=released');
    assert.deepEqual(releases, [[id, 'jane']], 'released by the signed-in person');
    assert.deepEqual(delivered, [{ form: '/contact', submission: HOSTILE, receivedAt: spamEntry('/contact', 2).receivedAt }]);
    const after = await get(answer.headers.location as string);
    assert.match(after.body, /<p role="status" class="admin-notice">Delivered\.<\/p>/);
    assert.deepEqual(buttonIds(after.body), [kept], 'it left the list');

    const again = await notSpam('/admin/spam/contact', { id });
    assert.equal(again.headers.location, '/admin/spam/contact?notice=gone');
    assert.match((await get(again.headers.location as string)).body, /admin-notice">Already handled\.</);
    assert.equal(delivered.length, 1, 'delivered once');
    assert.equal((await notSpam('/admin/spam/contact', { id: '../../x' })).headers.location, '/admin/spam/contact?notice=gone', 'an id that is none is handled');
  });

  it('"Delete" asks first, then forgets one entry; "Delete all" forgets every one the page showed and keeps a later arrival', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) ids.push(await store.quarantine(spamEntry('/contact', index)));
    const other = await store.quarantine(spamEntry('/plain', 9));
    const page = await get('/admin/spam/contact');
    assert.match(page.body, /<button type="submit" name="action" value="delete">Delete<span class="admin-visually-hidden"> the submission from sender3@example\.org<\/span><\/button>/);
    assert.match(page.body, new RegExp(`<input type="hidden" name="up_to" value="${ids[3]}"/><button type="submit">Delete all 4</button>`));

    const asked = await notSpam('/admin/spam/contact', { id: ids[1]!, action: 'delete' });
    assert.equal(asked.statusCode, 200);
    assert.match(textOf(asked.body), /Delete this submission\? .*deleted for good/);
    assert.equal(await store.count('/contact'), 4, 'nothing deleted before the answer');
    const done = await notSpam('/admin/spam/contact', { id: ids[1]!, action: 'delete', confirm: 'yes' });
    assert.equal(done.headers.location, '/admin/spam/contact?notice=deleted&count=1');
    assert.match((await get(done.headers.location as string)).body, /admin-notice">Deleted 1 submission\.</);
    assert.deepEqual(buttonIds((await get('/admin/spam/contact')).body), [ids[3], ids[2], ids[0]]);
    assert.deepEqual(releases, [], 'nothing delivered');

    // One arrives after the page was drawn: "Delete all" leaves it.
    const later = await store.quarantine(spamEntry('/contact', 20));
    const askedAll = await notSpam('/admin/spam/contact', { action: 'delete_all', up_to: ids[3]! });
    assert.match(textOf(askedAll.body), /Delete the spam of \/contact\?/);
    const emptied = await notSpam('/admin/spam/contact', { action: 'delete_all', up_to: ids[3]!, confirm: 'yes' });
    assert.equal(emptied.headers.location, '/admin/spam/contact?notice=deleted&count=3');
    assert.deepEqual(buttonIds((await get('/admin/spam/contact')).body), [later]);
    assert.equal(await store.count('/plain'), 1, 'another form keeps its own');
    assert.ok(other);
    const editor = await startSession(app, 'ed');
    assert.equal((await app.inject(formPost('/admin/spam/contact', { action: 'delete_all', up_to: later, confirm: 'yes', csrf_token: editor.csrf }, { cookie: editor.cookie }))).statusCode, 403);
    assert.equal(await store.count('/contact'), 1, 'an editor deletes nothing');
  });

  it('keeps a submission whose delivery failed, says so, and keeps the page it was on', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 52; index += 1) ids.push(await store.quarantine(spamEntry('/contact', index)));
    delivery = 'failed';
    const answer = await notSpam('/admin/spam/contact', { id: ids[0]!, before: ids[2]! });
    assert.equal(answer.headers.location, `/admin/spam/contact?before=${ids[2]}&notice=failed`);
    const page = await get(answer.headers.location as string);
    assert.match(page.body, /admin-notice">Could not be delivered; it stays here\.</);
    assert.deepEqual(buttonIds(page.body), [ids[1], ids[0]], 'still listed, on the page it was on');
    delivery = 'accepted';
    assert.equal((await notSpam('/admin/spam/contact', { id: ids[0]! })).headers.location, '/admin/spam/contact?notice=released', 'and can be delivered later');
  });

  it('refuses a "Not spam" without the CSRF token, from another site, or by an editor, and releases nothing', async () => {
    const id = await store.quarantine(spamEntry('/contact', 1));
    const forged = await app.inject(formPost('/admin/spam/contact', { id }, { cookie: session.cookie }));
    assert.equal(forged.statusCode, 403);
    const otherSite = await app.inject(formPost('/admin/spam/contact', { id, csrf_token: session.csrf }, { cookie: session.cookie, origin: 'https://evil.example' }));
    assert.equal(otherSite.statusCode, 403);
    const editor = await startSession(app, 'ed');
    assert.equal((await get('/admin/spam/contact', editor.cookie)).statusCode, 403, 'like the inbox, the owners’ alone');
    assert.equal((await app.inject(formPost('/admin/spam/contact', { id, csrf_token: editor.csrf }, { cookie: editor.cookie }))).statusCode, 403);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/spam/contact' })).statusCode, 303, 'signed out: to the sign-in page');
    assert.deepEqual(releases, []);
    assert.equal(await store.count('/contact'), 1);
  });

  it('without the forms service in this process: lists, has no button, and a POST delivers nothing', async () => {
    await app.close();
    await remove();
    withRelease = false;
    await build();
    const id = await store.quarantine(spamEntry('/contact', 1));
    const page = await get('/admin/spam/contact');
    assert.match(textOf(page.body), /Sender 1/);
    assert.deepEqual(buttonIds(page.body), [id], 'the row can still be deleted');
    assert.doesNotMatch(textOf(page.body), /Not spam from/, 'but not delivered');
    assert.match(textOf(page.body), /The forms service does not run in this process, so Not spam cannot deliver from here\./);
    const answer = await notSpam('/admin/spam/contact', { id });
    assert.equal(answer.headers.location, '/admin/spam/contact?notice=not_running');
    assert.equal(await store.count('/contact'), 1);
  });
});
