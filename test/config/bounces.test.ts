// [mail.bounces] (src/config/bounces.ts, docs/configuration.md "[mail.bounces]"): the policy's defaults when the table
// is left out, every key of the intakes with its default, and every mistake refused with its key path: an address
// whose local part leaves no room for the tag, a mailbox without the address its bounces are known by, a wrong ARN.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigText, type LoadResult } from '../../src/config/load.js';
import { toToml, type TomlTable } from '../support/config.js';

function loadWithBounces(bounces: TomlTable | undefined): LoadResult {
  const mail = { from: 'Forms <forms@example.com>', to: 'owner@example.com', ...(bounces === undefined ? {} : { bounces }) };
  return parseConfigText(toToml({ mail, forms: [{ path: '/contact', type: 'contact' }] }), { IMAP_PASSWORD: 'secret' }, '/srv/site');
}

function problemsOf(result: LoadResult): Array<{ path: string; message: string }> {
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? [] : result.problems;
}

describe('[mail.bounces]', () => {
  it('has the policy defaults when it is left out: no tagged address, 3 soft bounces in 30 days', () => {
    const result = loadWithBounces(undefined);
    assert.ok(result.ok);
    assert.deepEqual(result.config.mail?.bounces, { soft_limit: 3, soft_days: 30 });
  });

  it('loads the address, the mailbox with its defaults and every provider', () => {
    const result = loadWithBounces({
      address: 'bounces@example.com',
      soft_limit: 5,
      soft_days: 14,
      imap: { host: 'imap.example.com', user: 'bounces@example.com', password: '${IMAP_PASSWORD}' },
      webhooks: {
        postmark: { username: 'postbox', password: 'hook-secret' },
        ses: { topic_arns: ['arn:aws:sns:eu-west-1:123456789012:bounces'] },
        sendgrid: { public_key: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' },
        mailgun: { signing_key: 'key-abc' },
      },
    });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.deepEqual(result.config.mail?.bounces, {
      address: 'bounces@example.com',
      soft_limit: 5,
      soft_days: 14,
      imap: { host: 'imap.example.com', port: 993, secure: true, user: 'bounces@example.com', password: 'secret', folder: 'INBOX', poll_seconds: 60 },
      webhooks: {
        postmark: { username: 'postbox', password: 'hook-secret' },
        ses: { topic_arns: ['arn:aws:sns:eu-west-1:123456789012:bounces'] },
        sendgrid: { public_key: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE' },
        mailgun: { signing_key: 'key-abc' },
      },
    });
  });

  it('refuses every mistake with its key path', () => {
    const problems = problemsOf(
      loadWithBounces({
        address: `${'b'.repeat(32)}@example.com`,
        soft_limit: 0,
        soft_days: 0,
        imap: { host: 'not a host', port: 0, user: '', password: 'x', poll_seconds: 0, folderr: 'INBOX' },
        webhooks: { ses: { topic_arns: ['arn:aws:sqs:eu-west-1:123456789012:queue'] }, postmark: { username: 'u' } },
      }),
    );
    const paths = problems.map((problem) => problem.path).sort();
    assert.deepEqual(paths, [
      'mail.bounces.address',
      'mail.bounces.imap.folderr',
      'mail.bounces.imap.host',
      'mail.bounces.imap.poll_seconds',
      'mail.bounces.imap.port',
      'mail.bounces.imap.user',
      'mail.bounces.soft_days',
      'mail.bounces.soft_limit',
      'mail.bounces.webhooks.postmark.password',
      'mail.bounces.webhooks.ses.topic_arns[0]',
    ]);
    assert.match(problems.find((problem) => problem.path === 'mail.bounces.address')!.message, /at most 31 characters/);
    assert.match(problems.find((problem) => problem.path === 'mail.bounces.imap.folderr')!.message, /did you mean folder\?/);
  });

  it('refuses a display name, and a mailbox without the address its bounces come back to', () => {
    assert.deepEqual(
      problemsOf(loadWithBounces({ address: 'Bounces <bounces@example.com>' })).map((problem) => problem.path),
      ['mail.bounces.address'],
    );
    const problems = problemsOf(loadWithBounces({ imap: { host: 'imap.example.com', user: 'u', password: 'p' } }));
    assert.deepEqual(problems.map((problem) => problem.path), ['mail.bounces.address']);
    assert.match(problems[0]!.message, /is required with \[mail\.bounces\.imap\]/);
  });
});
