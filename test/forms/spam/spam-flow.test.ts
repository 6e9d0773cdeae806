// What a verdict of spam does (docs/spam.md): quarantined submissions are answered like accepted ones and deliver
// nothing, kept with their reasons whether or not the form has an archive; "reject" answers 400 spam; a captcha
// provider that cannot be asked quarantines even on a rejecting form; a newsletter sign-up taken for spam mails
// nobody; "Not spam" delivers once and moves the submission to the archive. Driven through the forms service's
// front door on the files backend.
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { test } from 'node:test';
import { composeSpamRelease } from '../../../src/app/spam-release.js';
import { contactForm, createTestFormsService, OWNER_ADDRESS, TEST_ORIGIN, type TestFormsOptions } from '../../support/forms-app.js';
import { listenOnLoopback } from '../../support/loopback-server.js';

const ORDINARY = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'I would like to ask about a website for my bakery.' };
const json = (payload: unknown) => ({ method: 'POST' as const, url: '/contact', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify(payload) });

async function withForms(options: TestFormsOptions, run: (forms: Awaited<ReturnType<typeof createTestFormsService>>) => Promise<void>) {
  const forms = await createTestFormsService(options);
  try {
    await run(forms);
  } finally {
    await forms.close();
  }
}

test('content rules on a form without proof of work: links, disposable and blocked words are quarantined, an ordinary message delivered', async () => {
  const spam = { max_links: 1, block_disposable: true, blocked_words: ['casino'] };
  await withForms({ forms: [contactForm({ spam, archive: 'contact.jsonl' })] }, async ({ app, mailer, backend, metrics, dataDir }) => {
    const cases = [
      { ...ORDINARY, message: 'Cheap pills at https://a.example and https://b.example today' },
      { ...ORDINARY, email: 'someone@mailinator.com' },
      { ...ORDINARY, message: 'Play at our casino and win a lot of money' },
    ];
    for (const fields of cases) {
      const answer = await app.inject(json(fields));
      assert.equal(answer.statusCode, 200);
      assert.deepEqual(answer.json(), { ok: true });
    }
    assert.equal(mailer.sent.length, 0, 'nothing of the quarantined submissions was sent');
    const kept = await backend.spam.list('/contact', { limit: 10 });
    assert.deepEqual(kept.map((entry) => entry.reasons), [['words'], ['disposable'], ['links']], 'newest first, each with its reason');
    assert.equal(kept[2]?.submission.message, cases[0]?.message);
    const archive = await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8').catch(() => '');
    assert.equal(archive, '', 'the archive holds no spam');

    const ordinary = await app.inject(json(ORDINARY));
    assert.equal(ordinary.statusCode, 200);
    assert.equal(mailer.sent.filter((mail) => mail.to === OWNER_ADDRESS).length, 1, 'the ordinary message is delivered');
    const counted = (await metrics()).forms['/contact']!;
    assert.equal(counted.spam_quarantined, 3);
    assert.equal(counted.spam_links, 1);
    assert.equal(counted.spam_disposable, 1);
    assert.equal(counted.spam_words, 1);
  });
});

test('a form without an archive keeps its spam too; "Not spam" delivers it once, even when clicked five times at once', async () => {
  await withForms({ forms: [contactForm({ spam: { max_links: 0 } })] }, async ({ app, mailer, backend, config, core, logs, clock }) => {
    await app.inject(json({ ...ORDINARY, message: 'Please look at https://my.example for my request' }));
    const [entry] = await backend.spam.list('/contact', { limit: 10 });
    assert.ok(entry, 'quarantined without an archive');
    const release = composeSpamRelease(config, backend, core, logs.logger, clock);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => release(entry.id, 'jane')));
    assert.deepEqual(outcomes.sort(), ['gone', 'gone', 'gone', 'gone', 'released']);
    assert.equal(mailer.sent.filter((mail) => mail.to === OWNER_ADDRESS).length, 1, 'delivered exactly once');
    assert.equal(await backend.spam.count('/contact'), 0, 'it left the quarantine');
  });
});

test('"Not spam" on a form with an archive writes the archive line with the time the submission arrived', async () => {
  await withForms({ forms: [contactForm({ spam: { blocked_words: ['bakery'] }, archive: 'contact.jsonl' })] }, async ({ app, backend, config, core, logs, clock, dataDir }) => {
    await app.inject(json(ORDINARY));
    const [entry] = await backend.spam.list('/contact', { limit: 1 });
    assert.ok(entry);
    clock.advance(3_600_000);
    assert.equal(await composeSpamRelease(config, backend, core, logs.logger, clock)(entry.id, 'jane'), 'released');
    const lines = (await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].received_at, entry.receivedAt);
    assert.equal(lines[0].message, ORDINARY.message);
  });
});

test('action "reject" answers 400 spam, keeps nothing and sends nothing', async () => {
  await withForms({ forms: [contactForm({ spam: { max_links: 0, action: 'reject' } })] }, async ({ app, mailer, backend, metrics }) => {
    const answer = await app.inject(json({ ...ORDINARY, message: 'Please see https://spam.example right now' }));
    assert.equal(answer.statusCode, 400);
    assert.deepEqual(answer.json(), { error: 'spam', message: 'The submission was taken for spam and not delivered.' });
    assert.equal(answer.headers['access-control-allow-origin'], TEST_ORIGIN, 'the page can read why');
    assert.equal(mailer.sent.length, 0);
    assert.equal(await backend.spam.count('/contact'), 0);
    assert.equal((await metrics()).forms['/contact']!.spam_rejected, 1);
  });
});

/** A stand-in for the captcha provider's siteverify: the test says what it answers. */
async function startFakeProvider(answer: () => { status: number; body: string }) {
  const received: URLSearchParams[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push(new URLSearchParams(body));
      const { status, body: text } = answer();
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(text);
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}/siteverify`, received, close };
}

test('captcha: a passed token delivers, a failed one is rejected, and an unreachable provider quarantines even on a rejecting form', async () => {
  let reply = { status: 200, body: '{"success":true}' };
  const provider = await startFakeProvider(() => reply);
  try {
    const spam = { captcha: { provider: 'turnstile', secret: 'turnstile-secret' }, action: 'reject' };
    await withForms({ forms: [contactForm({ spam })], deps: { captchaVerifyUrl: provider.url } }, async ({ app, mailer, backend }) => {
      const withToken = { ...ORDINARY, 'cf-turnstile-response': 'token-1' };
      assert.equal((await app.inject(json(withToken))).statusCode, 200);
      assert.equal(mailer.sent.length > 0, true, 'a passed captcha delivers');
      assert.equal(provider.received[0]?.get('secret'), 'turnstile-secret');
      assert.equal(provider.received[0]?.get('response'), 'token-1');

      reply = { status: 200, body: '{"success":false}' };
      const failed = await app.inject(json(withToken));
      assert.equal(failed.statusCode, 400, 'a failed captcha on a rejecting form');

      reply = { status: 503, body: 'down' };
      const outage = await app.inject(json({ ...withToken, message: 'Sent while the provider was down, please keep it.' }));
      assert.equal(outage.statusCode, 200, 'the outage is not the visitor’s fault');
      const [kept] = await backend.spam.list('/contact', { limit: 1 });
      assert.deepEqual(kept?.reasons, ['captcha']);
      assert.equal(kept?.submission.message, 'Sent while the provider was down, please keep it.');
    });
  } finally {
    await provider.close();
  }
});

test('a newsletter sign-up taken for spam mails nobody; "Not spam" then sends the confirmation', async () => {
  const newsletter = { path: '/newsletter', type: 'newsletter', allowed_origins: [TEST_ORIGIN], spam: { proof_of_work: true } };
  await withForms({ forms: [newsletter], extra: { server: { public_url: 'https://forms.example.com' } } }, async ({ app, mailer, backend, config, core, logs, clock }) => {
    const answer = await app.inject({ method: 'POST', url: '/newsletter', headers: { 'content-type': 'application/json', origin: TEST_ORIGIN }, payload: JSON.stringify({ email: 'victim@example.org' }) });
    assert.equal(answer.statusCode, 200);
    assert.equal(mailer.sent.length, 0, 'no confirmation mail to the address a bot typed');
    const [entry] = await backend.spam.list('/newsletter', { limit: 1 });
    assert.deepEqual(entry?.reasons, ['proof_of_work']);
    assert.equal(await composeSpamRelease(config, backend, core, logs.logger, clock)(entry!.id, 'jane'), 'released');
    assert.equal(mailer.sent.filter((mail) => mail.to === 'victim@example.org').length, 1, 'the confirmation mail after "Not spam"');
  });
});

test('GET <form>/challenge: a signed challenge for allowed origins, never cached; 403 for another origin; none without proof of work', async () => {
  await withForms({ forms: [contactForm({ spam: { proof_of_work: true } }), contactForm({ path: '/plain' })] }, async ({ app }) => {
    const answer = await app.inject({ method: 'GET', url: '/contact/challenge', headers: { origin: TEST_ORIGIN } });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal(answer.headers['access-control-allow-origin'], TEST_ORIGIN);
    const challenge = answer.json();
    assert.equal(challenge.parameters.algorithm, 'SHA-256');
    assert.match(challenge.signature, /^[0-9a-f]{64}$/);
    assert.equal(challenge.parameters.data.f, '/contact');
    const other = await app.inject({ method: 'GET', url: '/contact/challenge', headers: { origin: 'https://evil.example' } });
    assert.equal(other.statusCode, 403);
    assert.equal((await app.inject({ method: 'GET', url: '/plain/challenge' })).statusCode, 404);
  });
});

test('GET /altcha.js: the widget, cross-origin, kept an hour, compressed, and revalidated by its ETag', async () => {
  await withForms({}, async ({ app }) => {
    const plain = await app.inject({ method: 'GET', url: '/altcha.js' });
    assert.equal(plain.statusCode, 200);
    assert.match(plain.headers['content-type'] as string, /^text\/javascript/);
    assert.equal(plain.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(plain.headers['cache-control'], 'public, max-age=3600');
    assert.match(plain.body, /altcha-widget/);
    const br = await app.inject({ method: 'GET', url: '/altcha.js', headers: { 'accept-encoding': 'gzip, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload);
    const refused = await app.inject({ method: 'GET', url: '/altcha.js', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    assert.equal(refused.headers['content-encoding'], 'gzip');
    const again = await app.inject({ method: 'GET', url: '/altcha.js', headers: { 'if-none-match': plain.headers.etag as string } });
    assert.equal(again.statusCode, 304);
    const head = await app.inject({ method: 'HEAD', url: '/altcha.js' });
    assert.equal(head.statusCode, 200, 'curl -I and link checkers ask with HEAD');
    assert.equal(head.headers['content-length'], plain.headers['content-length']);
    assert.equal(head.body, '');
    const tags = [plain, br, refused].map((answer) => answer.headers.etag);
    assert.equal(new Set(tags).size, 3, `an ETag per encoding: ${tags.join(' ')}`);
    const brAgain = await app.inject({ method: 'GET', url: '/altcha.js', headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string } });
    assert.equal(brAgain.statusCode, 304);
    assert.equal(brAgain.headers.etag, br.headers.etag);
  });
});

test('GET /altcha.<hash>.js: the same widget at an address named by its content, kept a year without asking; another hash is 404', async () => {
  await withForms({}, async ({ app }) => {
    // Where an embedder finds the address: the listener's own document.
    const document = JSON.parse((await app.inject({ method: 'GET', url: '/openapi.json' })).body) as { paths: Record<string, unknown> };
    const versioned = Object.keys(document.paths).filter((address) => /^\/altcha\.[\w-]{16}\.js$/.test(address));
    assert.equal(versioned.length, 1, Object.keys(document.paths).join(' '));
    const address = versioned[0]!;
    const unversioned = await app.inject({ method: 'GET', url: '/altcha.js' });
    const plain = await app.inject({ method: 'GET', url: address });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['access-control-allow-origin'], '*');
    assert.equal(plain.headers['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.deepEqual(plain.rawPayload, unversioned.rawPayload);
    const gzip = await app.inject({ method: 'GET', url: address, headers: { 'accept-encoding': 'gzip' } });
    const br = await app.inject({ method: 'GET', url: address, headers: { 'accept-encoding': 'br' } });
    assert.deepEqual([gzip.headers['content-encoding'], br.headers['content-encoding']], ['gzip', 'br']);
    assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload);
    assert.equal(new Set([plain, gzip, br].map((answer) => answer.headers.etag)).size, 3);
    const again = await app.inject({ method: 'GET', url: address, headers: { 'accept-encoding': 'gzip', 'if-none-match': gzip.headers.etag as string } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal((await app.inject({ method: 'GET', url: address.replace(/\.[\w-]{16}\.js$/, '.AAAAAAAAAAAAAAAA.js') })).statusCode, 404);
  });
});
