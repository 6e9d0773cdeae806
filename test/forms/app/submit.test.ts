// POST <form_path> through inject: body shapes, the answers of docs/forms-api.md "POST <path>" and the
// counters behind each.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contactForm, OWNER_ADDRESS, useTestFormsService, type TestFormsService } from '../../support/forms-app.js';

const ADA = { name: 'Ada Lovelace', email: 'ada@example.org', message: 'Hello! I would like a website.' };

const start = useTestFormsService();

function postJson(forms: TestFormsService, body: unknown, headers: Record<string, string> = {}) {
  return forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });
}

function multipart(parts: Array<{ name: string; value: string; filename?: string }>, boundary = 'XyZboundary42') {
  const body = parts
    .map((part) => {
      const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
      const type = part.filename ? 'Content-Type: application/octet-stream\r\n' : '';
      return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n${part.value}\r\n`;
    })
    .join('');
  return { payload: `${body}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('POST accepted in each body shape', () => {
  it('JSON: 200 {"ok":true}, owner mail with Reply-To the submitter, a receipt, received and sent counted', async () => {
    const forms = await start();
    const response = await postJson(forms, ADA);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { ok: true });
    assert.match(String(response.headers['content-type']), /^application\/json/);
    const [owner, receipt] = forms.mailer.sent;
    assert.equal(forms.mailer.sent.length, 2);
    assert.equal(owner?.to, OWNER_ADDRESS);
    assert.equal(owner?.replyTo, 'ada@example.org');
    assert.match(owner?.subject ?? '', /contact/);
    assert.match(owner?.subject ?? '', /Ada Lovelace/);
    assert.match(owner?.text ?? '', /Hello! I would like a website\./);
    assert.equal(receipt?.to, 'ada@example.org');
    const metrics = await forms.metrics();
    assert.equal(metrics.forms['/contact']?.received, 1);
    assert.equal(metrics.forms['/contact']?.sent, 1);
    assert.equal(metrics.totals.sent, 1);
  });

  it('urlencoded: fields decoded, a repeated field keeps its first value', async () => {
    const forms = await start();
    const response = await forms.app.inject({
      method: 'POST',
      url: '/contact',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Ada+Lovelace&email=ada%40example.org&message=Hello%2C+a+website+please&name=Mallory',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(forms.mailer.sent[0]?.subject ?? '', /Ada Lovelace/);
    assert.doesNotMatch(forms.mailer.sent[0]?.text ?? '', /Mallory/);
    assert.match(forms.mailer.sent[0]?.text ?? '', /Hello, a website please/);
  });

  it('multipart: file parts are skipped (even one named like a field), a repeated field keeps its first value', async () => {
    const forms = await start();
    const { payload, contentType } = multipart([
      { name: 'message', value: 'FILE CONTENT '.repeat(500), filename: 'notes.txt' },
      { name: 'name', value: 'Ada Lovelace' },
      { name: 'email', value: 'ada@example.org' },
      { name: 'message', value: 'The real message text.' },
      { name: 'message', value: 'A second message field.' },
      { name: 'attachment', value: 'x'.repeat(2000), filename: 'big.bin' },
    ]);
    const response = await forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': contentType }, payload });
    assert.equal(response.statusCode, 200, response.body);
    const text = forms.mailer.sent[0]?.text ?? '';
    assert.match(text, /The real message text\./);
    assert.doesNotMatch(text, /FILE CONTENT|second message/);
  });

  it("a form's own `to` overrides mail.to", async () => {
    const forms = await start({ forms: [contactForm({ to: 'sales@example.com' })] });
    assert.equal((await postJson(forms, ADA)).statusCode, 200);
    assert.equal(forms.mailer.sent[0]?.to, 'sales@example.com');
  });

  it('the content type is matched without case and with parameters', async () => {
    const forms = await start();
    const response = await postJson(forms, ADA, { 'content-type': 'Application/JSON; charset=UTF-8' });
    assert.equal(response.statusCode, 200, response.body);
  });
});

describe('400 invalid_body', () => {
  const cases: Array<{ why: string; contentType?: string; payload: string | Buffer; message?: RegExp }> = [
    { why: 'broken JSON', contentType: 'application/json', payload: '{"name":' },
    { why: 'an empty JSON body', contentType: 'application/json', payload: '' },
    { why: 'a JSON array', contentType: 'application/json', payload: '[1,2]', message: /object/ },
    { why: 'a JSON string', contentType: 'application/json', payload: '"hello"', message: /object/ },
    { why: 'JSON null', contentType: 'application/json', payload: 'null', message: /object/ },
    { why: 'JSON that is not UTF-8', contentType: 'application/json', payload: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) },
    { why: 'text/plain', contentType: 'text/plain', payload: 'name=Ada', message: /application\/json.*x-www-form-urlencoded.*multipart\/form-data/ },
    { why: 'no Content-Type', payload: '{}', message: /application\/json.*x-www-form-urlencoded.*multipart\/form-data/ },
    { why: 'a malformed Content-Type', contentType: 'garbage;;', payload: '{}', message: /application\/json/ },
    { why: 'multipart without a boundary', contentType: 'multipart/form-data', payload: 'abc' },
    { why: 'a truncated multipart body', contentType: 'multipart/form-data; boundary=b', payload: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda' },
  ];
  for (const entry of cases) {
    it(`${entry.why}: 400 {error, message}, invalid_body counted, nothing sent`, async () => {
      const forms = await start();
      const headers: Record<string, string> = entry.contentType === undefined ? {} : { 'content-type': entry.contentType };
      const response = await forms.app.inject({ method: 'POST', url: '/contact', headers, payload: entry.payload });
      assert.equal(response.statusCode, 400);
      const body = response.json();
      assert.equal(body.error, 'invalid_body');
      assert.equal(typeof body.message, 'string');
      assert.deepEqual(Object.keys(body).sort(), ['error', 'message']);
      if (entry.message) assert.match(body.message, entry.message);
      assert.equal(forms.mailer.sent.length, 0);
      const metrics = await forms.metrics();
      assert.equal(metrics.forms['/contact']?.invalid_body, 1);
      assert.equal(metrics.forms['/contact']?.received, 1);
    });
  }

  it('the message never echoes the body', async () => {
    const forms = await start();
    const response = await forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': 'application/json' }, payload: '{"name": SECRET-TEXT' });
    assert.doesNotMatch(response.body, /SECRET/);
  });
});

describe('413 body_too_large', () => {
  it('a declared Content-Length over max_body_bytes: 413, counted, nothing sent', async () => {
    const forms = await start({ extra: { server: { max_body_bytes: 100 } } });
    const response = await postJson(forms, { ...ADA, message: 'x'.repeat(200) });
    assert.equal(response.statusCode, 413);
    const body = response.json();
    assert.equal(body.error, 'body_too_large');
    assert.equal(typeof body.message, 'string');
    assert.equal(response.headers.connection, 'close');
    assert.equal(forms.mailer.sent.length, 0);
    assert.equal((await forms.metrics()).forms['/contact']?.body_too_large, 1);
  });

  it('a body exactly at the limit is read', async () => {
    const payload = JSON.stringify(ADA);
    const forms = await start({ extra: { server: { max_body_bytes: Buffer.byteLength(payload) } } });
    assert.equal((await postJson(forms, ADA)).statusCode, 200);
  });

  it('a multipart body over the limit is 413 even though most of it is a skipped file', async () => {
    const forms = await start({ extra: { server: { max_body_bytes: 1000 } } });
    const { payload, contentType } = multipart([
      { name: 'file', value: 'z'.repeat(5000), filename: 'a.bin' },
      ...Object.entries(ADA).map(([name, value]) => ({ name, value })),
    ]);
    const response = await forms.app.inject({ method: 'POST', url: '/contact', headers: { 'content-type': contentType }, payload });
    assert.equal(response.statusCode, 413);
  });
});

describe('400 validation', () => {
  it('lists every invalid field once, in the order name, email, service, message', async () => {
    const forms = await start({ forms: [contactForm({ services: ['Web design'] })] });
    const response = await postJson(forms, { message: 'short', service: 'Plumbing', email: 'not-an-address', name: 'A' });
    assert.equal(response.statusCode, 400);
    const body = response.json();
    assert.equal(body.error, 'validation');
    assert.deepEqual(Object.keys(body).sort(), ['details', 'error']);
    assert.deepEqual(body.details.map((detail: { field: string }) => detail.field), ['name', 'email', 'service', 'message']);
    for (const detail of body.details) assert.equal(typeof detail.message, 'string');
    assert.doesNotMatch(response.body, /not-an-address|Plumbing/);
    assert.equal(forms.mailer.sent.length, 0);
    assert.equal((await forms.metrics()).forms['/contact']?.validation_failed, 1);
  });

  it('each submission gets the details of its own fields, however many answers came before (answers are remembered per form)', async () => {
    const forms = await start({ forms: [contactForm({ services: ['Web design'] })] });
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...ADA, name: 'A' }, ['name: Name must be at least 2 characters']],
      [{ ...ADA, email: 'nope' }, ['email: Email must be a valid email address']],
      [{ ...ADA, email: 7 }, ['email: Email must be text']],
      [{ ...ADA, name: 'A', email: 'nope' }, ['name: Name must be at least 2 characters', 'email: Email must be a valid email address']],
      [{ ...ADA, service: 'Plumbing', message: 'x' }, ['service: Service must be one of the offered choices', 'message: Message must be at least 10 characters']],
      [{ ...ADA, name: 'A' }, ['name: Name must be at least 2 characters']],
      [{ ...ADA, name: 'Ada\nLovelace' }, ['name: Name must not contain control characters or line breaks']],
      [{ ...ADA, email: 'nope' }, ['email: Email must be a valid email address']],
    ];
    for (const [body, expected] of cases) {
      const response = await postJson(forms, body);
      assert.equal(response.statusCode, 400);
      const answer = response.json() as { error: string; details: Array<{ field: string; message: string }> };
      assert.deepEqual(
        answer.details.map((detail) => `${detail.field}: ${detail.message}`),
        expected,
        JSON.stringify(body),
      );
    }
    assert.equal((await forms.metrics()).forms['/contact']?.validation_failed, cases.length);
  });

  it('validation comes before the honeypot: an invalid submission with the trap filled is a 400', async () => {
    const forms = await start();
    const response = await postJson(forms, { email: 'ada@example.org', website: 'http://spam.example' });
    assert.equal(response.statusCode, 400);
    const metrics = await forms.metrics();
    assert.equal(metrics.forms['/contact']?.honeypot_blocked, 0);
  });
});

describe('honeypot', () => {
  it('a filled trap field: 200 {"ok":true}, no mail, honeypot_blocked, one honeypot log line', async () => {
    const forms = await start();
    const response = await postJson(forms, { ...ADA, website: 'http://spam.example' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { ok: true });
    assert.equal(forms.mailer.sent.length, 0);
    const metrics = await forms.metrics();
    assert.equal(metrics.forms['/contact']?.honeypot_blocked, 1);
    assert.equal(metrics.forms['/contact']?.sent, 0);
    const events = forms.logs.lines().filter((line) => line.event !== undefined);
    assert.deepEqual(
      events.filter((line) => line.event === 'honeypot').map((line) => ({ event: line.event, form: line.form })),
      [{ event: 'honeypot', form: '/contact' }],
    );
    assert.equal(events.some((line) => String(line.event).startsWith('mail_')), false);
  });

  it('a custom honeypot_field is the one checked', async () => {
    const forms = await start({ forms: [contactForm({ honeypot_field: 'fax' })] });
    assert.equal((await postJson(forms, { ...ADA, website: 'filled' })).statusCode, 200);
    assert.equal(forms.mailer.sent.length, 2, 'website is an ordinary field now');
    assert.equal((await postJson(forms, { ...ADA, fax: '123' })).statusCode, 200);
    assert.equal(forms.mailer.sent.length, 2, 'fax is the trap');
  });
});

describe('redirect_url', () => {
  const redirect = 'https://example.com/thanks';
  it('an accepted submission is answered 303 with Location and no JSON body', async () => {
    const forms = await start({ forms: [contactForm({ redirect_url: redirect })] });
    const response = await postJson(forms, ADA);
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, redirect);
    assert.equal(response.body, '');
    assert.equal(forms.mailer.sent.length, 2);
  });

  it('a honeypot hit is redirected the same way', async () => {
    const forms = await start({ forms: [contactForm({ redirect_url: redirect })] });
    const response = await postJson(forms, { ...ADA, website: 'spam' });
    assert.equal(response.statusCode, 303);
    assert.equal(response.headers.location, redirect);
    assert.equal(forms.mailer.sent.length, 0);
  });

  it('errors are not redirected', async () => {
    const forms = await start({ forms: [contactForm({ redirect_url: redirect })] });
    const response = await postJson(forms, { email: 'x' });
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers.location, undefined);
  });
});

describe('feedback and generic forms', () => {
  it('feedback with require_name = false accepts a submission without name; the subject says so', async () => {
    const forms = await start({ forms: [{ path: '/feedback', type: 'feedback', require_name: false }] });
    const response = await forms.app.inject({
      method: 'POST',
      url: '/feedback',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'ada@example.org', message: 'Great site, thanks!' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.match(forms.mailer.sent[0]?.subject ?? '', /feedback/);
    assert.equal(forms.mailer.sent[0]?.replyTo, 'ada@example.org');
  });

  it('generic requires name, email and message', async () => {
    const forms = await start({ forms: [{ path: '/generic', type: 'generic' }] });
    const response = await forms.app.inject({ method: 'POST', url: '/generic', headers: { 'content-type': 'application/json' }, payload: {} });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json().details.map((detail: { field: string }) => detail.field), ['name', 'email', 'message']);
  });
});
