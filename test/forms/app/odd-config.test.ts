// Values the configuration accepts that once broke an answer: a Unicode redirect_url (Node refused the Location
// header and the process ended after the owner mail was sent), an allowed origin with a Unicode host, and IPv6
// clients who own a whole /64.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contactForm, TEST_ORIGIN, useTestFormsService } from '../../support/forms-app.js';
import { withTempDir } from '../../support/temp-dir.js';

const start = useTestFormsService();
const VALID = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };

describe('odd but valid configurations', () => {
  it('a Unicode redirect_url is sent as its ASCII serialisation: 303, one owner mail, no error', async () => {
    const forms = await start({ forms: [contactForm({ redirect_url: 'https://example.com/спасибо?от=формы', receipt: false })] });
    const response = await forms.app.inject({ method: 'POST', url: '/contact', headers: { origin: TEST_ORIGIN }, payload: VALID });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, 'https://example.com/%D1%81%D0%BF%D0%B0%D1%81%D0%B8%D0%B1%D0%BE?%D0%BE%D1%82=%D1%84%D0%BE%D1%80%D0%BC%D1%8B');
    assert.equal(forms.mailer.sent.length, 1);
    assert.equal(forms.logs.lines().filter((line) => line.level === 50).length, 0);
  });

  it('an allowed origin with a Unicode host matches what browsers send, its ASCII serialisation', async () => {
    const forms = await start({ forms: [contactForm({ allowed_origins: ['https://bücher.example'] })] });
    assert.deepEqual(forms.config.forms[0]!.allowed_origins, ['https://xn--bcher-kva.example']);
    const allowed = await forms.app.inject({ method: 'POST', url: '/contact', headers: { origin: 'https://xn--bcher-kva.example' }, payload: VALID });
    assert.equal(allowed.statusCode, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://xn--bcher-kva.example');
    const other = await forms.app.inject({ method: 'POST', url: '/contact', headers: { origin: 'https://bucher.example' }, payload: VALID });
    assert.equal(other.statusCode, 403);
  });

  it('IPv6 clients share a bucket per /64 (rate_limit_ipv6_prefix), IPv4 clients one per address', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 1, receipt: false })] });
    const post = (remoteAddress: string) => forms.app.inject({ method: 'POST', url: '/contact', remoteAddress, payload: VALID });
    assert.equal((await post('2001:db8:1:2::1')).statusCode, 200);
    assert.equal((await post('2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode, 429, 'another address of the same /64');
    assert.equal((await post('2001:db8:1:3::1')).statusCode, 200, 'the next /64');
    assert.equal((await post('192.0.2.1')).statusCode, 200);
    assert.equal((await post('192.0.2.2')).statusCode, 200);
  });

  it('rate_limit_ipv6_prefix = 48 puts a whole /48 in one bucket', async () => {
    const forms = await start({ forms: [contactForm({ rate_limit_per_hour: 1, receipt: false })], extra: { server: { rate_limit_ipv6_prefix: 48 } } });
    const post = (remoteAddress: string) => forms.app.inject({ method: 'POST', url: '/contact', remoteAddress, payload: VALID });
    assert.equal((await post('2001:db8:1:2::1')).statusCode, 200);
    assert.equal((await post('2001:db8:1:ff::1')).statusCode, 429);
  });

  it('a data_dir that does not exist yet, and no newsletter form: the first submission is archived', () =>
    withTempDir('fresh-data', async (dir) => {
      const dataDir = path.join(dir, 'not', 'yet');
      const forms = await start({ forms: [contactForm({ archive: 'contact.jsonl', receipt: false })], dataDir });
      const response = await forms.app.inject({ method: 'POST', url: '/contact', payload: VALID });
      assert.equal(response.statusCode, 200);
      assert.match(await readFile(path.join(dataDir, 'contact.jsonl'), 'utf8'), /"email":"ada@example.org"/);
    }));
});
