// [forms.webhook]: url, secret and format, each refused with its key path when it cannot work.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeConfig } from '../../src/cli/check-summary.js';
import { parseConfigText, type LoadResult } from '../../src/config/load.js';
import { toToml, type TomlTable } from '../support/config.js';

/** 32 random bytes, as `openssl rand -base64 32` prints them. */
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ=';

function loadWithWebhook(webhook: TomlTable, type = 'contact', env: NodeJS.ProcessEnv = {}): LoadResult {
  const table = {
    server: { public_url: 'https://forms.example.com' },
    mail: { from: 'Forms <forms@example.com>', to: 'owner@example.com' },
    forms: [{ path: '/contact', type, webhook }],
  };
  return parseConfigText(toToml(table), env, '/srv/site');
}

function problemsOf(result: LoadResult): Array<{ path: string; message: string }> {
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? [] : result.problems;
}

describe('[forms.webhook]', () => {
  it('loads a signed json webhook by default, its secret usually from the environment', () => {
    const result = loadWithWebhook({ url: 'https://hooks.example.com/postbox?team=1', secret: '${WEBHOOK_SECRET}' }, 'contact', { WEBHOOK_SECRET: SECRET });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    const [form] = result.config.forms;
    assert.ok(form && form.type !== 'newsletter');
    assert.deepEqual(form.webhook, { url: 'https://hooks.example.com/postbox?team=1', format: 'json', secret: SECRET });
    assert.match(describeConfig(result.config), /\/contact \(contact\).*webhook \(json\)/);
    assert.ok(!describeConfig(result.config).includes('hooks.example.com'), 'the summary does not print the URL, which may be a secret');
  });

  it('loads Slack and Discord webhooks without a secret', () => {
    for (const format of ['slack', 'discord']) {
      const result = loadWithWebhook({ url: 'https://hooks.slack.com/services/T0/B0/XXXX', format });
      assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
      assert.deepEqual(result.config.forms[0]?.type !== 'newsletter' && result.config.forms[0]?.webhook, { url: 'https://hooks.slack.com/services/T0/B0/XXXX', format });
    }
  });

  it('refuses a URL that is not http(s) or carries a user name or password', () => {
    for (const url of ['hooks.example.com/x', 'ftp://hooks.example.com/x', 'https://user:pass@hooks.example.com/x', '']) {
      assert.deepEqual(problemsOf(loadWithWebhook({ url, secret: SECRET })).map((problem) => problem.path), ['forms[0].webhook.url'], url);
    }
  });

  it('refuses a secret that is not whsec_ and base64 of at least 24 bytes, without quoting it', () => {
    const bad = [
      'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ=',
      'whsec_',
      'whsec_not base64 at all!!',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ',
      'whsec_c2hvcnQ=',
      'whsec-MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwXk0c1Fq1dbQ=',
    ];
    for (const secret of bad) {
      const problems = problemsOf(loadWithWebhook({ url: 'https://hooks.example.com/x', secret }));
      assert.deepEqual(problems.map((problem) => problem.path), ['forms[0].webhook.secret'], secret);
      assert.match(problems[0]?.message ?? '', /must be "whsec_" followed by at least 24 random bytes in base64/);
      if (secret.length > 8) assert.ok(!problems[0]?.message.includes(secret.slice(6)), 'the secret is not quoted');
    }
  });

  it('wants a secret for json and refuses one for slack and discord', () => {
    assert.deepEqual(problemsOf(loadWithWebhook({ url: 'https://hooks.example.com/x' })), [
      { path: 'forms[0].webhook.secret', message: 'is required with format = "json": the Standard Webhooks signing secret ("whsec_...")' },
    ]);
    assert.deepEqual(problemsOf(loadWithWebhook({ url: 'https://discord.com/api/webhooks/1/x', format: 'discord', secret: SECRET })), [
      { path: 'forms[0].webhook.secret', message: 'is only used with format = "json": Discord webhooks are not signed, their URL is the secret' },
    ]);
  });

  it('refuses an unknown format or key, an unset variable, and a webhook on a newsletter form', () => {
    const paths = (webhook: TomlTable, type = 'contact') => problemsOf(loadWithWebhook(webhook, type)).map((problem) => problem.path);
    assert.deepEqual(paths({ url: 'https://hooks.example.com/x', secret: SECRET, format: 'teams' }), ['forms[0].webhook.format']);
    assert.deepEqual(paths({ url: 'https://hooks.example.com/x', secret: SECRET, fromat: 'json' }), ['forms[0].webhook.fromat']);
    assert.deepEqual(paths({ url: 'https://hooks.example.com/x', secret: '${WEBHOOK_SECRET}' }), ['forms[0].webhook.secret']);
    assert.deepEqual(paths({ url: 'https://hooks.example.com/x', secret: SECRET }, 'newsletter'), ['forms[0].webhook']);
  });
});
