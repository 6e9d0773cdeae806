import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigText } from '../../src/config/load.js';

const minimal = `
[mail]
from = "Forms <forms@example.com>"
to = "owner@example.com"

[[forms]]
path = "/contact"
type = "contact"
allowed_origins = ["https://example.com"]
`;

function problemsOf(text: string, env: NodeJS.ProcessEnv = {}) {
  const result = parseConfigText(text, env, '/srv/site');
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? [] : result.problems;
}

describe('parseConfigText', () => {
  it('fills every default of docs/configuration.md and resolves paths against the config directory', () => {
    const result = parseConfigText(minimal, {}, '/srv/site');
    assert.ok(result.ok);
    const { config } = result;
    assert.equal(config.data_dir, '/srv/site/data');
    assert.deepEqual(config.server.listen, { host: '127.0.0.1', port: 8080 });
    assert.equal(config.server.max_body_bytes, 1048576);
    assert.equal(config.server.trust_proxy_headers, 0);
    assert.equal(config.server.rate_limit_ipv6_prefix, 64);
    assert.deepEqual(config.rate_limit, { backend: 'memory' });
    assert.deepEqual(config.state, { backend: 'files' });
    assert.equal(config.mail?.transport, 'file');
    const form = config.forms[0]!;
    assert.equal(form.honeypot_field, 'website');
    assert.equal(form.rate_limit_per_hour, 10);
    assert.equal(form.require_name, true);
    assert.equal(form.require_message, true);
    assert.deepEqual([form.name_min, form.name_max, form.message_min, form.message_max], [2, 100, 10, 5000]);
    assert.equal(form.receipt, true);
    assert.ok(Object.isFrozen(config.forms[0]), 'config is frozen');
  });

  it('sends through [mail.smtp] when it is there and transport is not set; "file" otherwise or when chosen', () => {
    const smtp = `${minimal}\n[mail.smtp]\nhost = "smtp.example.com"\n`;
    const sending = parseConfigText(smtp, {}, '/srv/site');
    assert.ok(sending.ok);
    assert.deepEqual(sending.config.mail && { transport: sending.config.mail.transport, smtp: 'smtp' in sending.config.mail && sending.config.mail.smtp }, {
      transport: 'smtp',
      smtp: { host: 'smtp.example.com', port: 587, secure: false },
    });
    const chosen = parseConfigText(smtp.replace('[mail]\n', '[mail]\ntransport = "file"\n'), {}, '/srv/site');
    assert.ok(chosen.ok);
    assert.equal(chosen.config.mail?.transport, 'file');
    const explicit = parseConfigText(smtp.replace('[mail]\n', '[mail]\ntransport = "smtp"\n'), {}, '/srv/site');
    assert.ok(explicit.ok);
    assert.equal(explicit.config.mail?.transport, 'smtp');
    assert.deepEqual(problemsOf(minimal.replace('[mail]\n', '[mail]\ntransport = "smtp"\n')), [{ path: 'mail.smtp', message: 'is required when transport = "smtp"' }]);
  });

  it('derives the newsletter defaults from the path', () => {
    const result = parseConfigText(
      `${minimal}\n[server]\npublic_url = "https://forms.example.com/"\n[[forms]]\npath = "/news/letter"\ntype = "newsletter"\n`,
      {},
      '/srv',
    );
    assert.ok(result.ok);
    const newsletter = result.config.forms[1]!;
    assert.equal(newsletter.type, 'newsletter');
    assert.equal(newsletter.subscribers, 'news-letter-subscribers.jsonl');
    assert.equal(newsletter.confirm_ttl_hours, 48);
    assert.equal(newsletter.confirm_url, 'https://forms.example.com/news/letter/confirm');
    assert.equal(result.config.server.public_url, 'https://forms.example.com');
  });

  it('substitutes ${VAR} and names an unset variable with its key path', () => {
    const text = `${minimal}\n[server]\nmetrics_token = "\${METRICS_TOKEN}"\n`;
    const ok = parseConfigText(text, { METRICS_TOKEN: 's3cret' }, '/');
    assert.ok(ok.ok);
    assert.equal(ok.config.server.metrics_token, 's3cret');
    assert.deepEqual(problemsOf(text), [{ path: 'server.metrics_token', message: 'environment variable METRICS_TOKEN is not set' }]);
    const literal = parseConfigText(`${minimal}\n[server]\nmetrics_token = "a$\${B}"\n`, {}, '/');
    assert.ok(literal.ok);
    assert.equal(literal.config.server.metrics_token, 'a${B}');
  });

  it('rejects unknown keys, wildcard origins and bad types, naming each key path', () => {
    const text = minimal
      .replace('type = "contact"', 'type = "contakt"\nrate_limit_per_huor = 5')
      .replace('["https://example.com"]', '["*", "https://example.com/"]');
    const paths = problemsOf(text).map((problem) => problem.path);
    assert.ok(paths.includes('forms[0].type'), paths.join());
    assert.ok(paths.includes('forms[0].rate_limit_per_huor'), `unknown key reported at its own path: ${paths.join()}`);
    assert.ok(paths.includes('forms[0].allowed_origins[0]'), paths.join());
    assert.ok(paths.includes('forms[0].allowed_origins[1]'), paths.join());
  });

  it('says "unknown key" at the key path, with the nearest known key of its table when one is close', () => {
    const text = `${minimal}rate_limit_per_huor = 5\nredirect = "https://example.com/thanks"\n[server]\ntrust_proxy_header = true\n[mial]\n`;
    assert.deepEqual(problemsOf(text), [
      { path: 'server.trust_proxy_header', message: 'unknown key (did you mean trust_proxy_headers?)' },
      { path: 'forms[0].rate_limit_per_huor', message: 'unknown key (did you mean rate_limit_per_hour?)' },
      { path: 'forms[0].redirect', message: 'unknown key' },
      { path: 'mial', message: 'unknown key (did you mean mail?)' },
    ]);
  });

  it('says that a form written as [forms] must be a [[forms]] table', () => {
    const problems = problemsOf(minimal.replace('[[forms]]', '[forms]'));
    assert.deepEqual(problems.find((problem) => problem.path === 'forms'), { path: 'forms', message: 'must be [[forms]] tables (double brackets in TOML), one per form' });
  });

  it('says that a missing key "is required", whatever its type', () => {
    const text = `[mail]\nto = "owner@example.com"\n[[forms]]\ntype = "contact"\n[forms.telegram]\nbot_token = "123:abc"\n[site]\ntitle = "Blog"\n[blog]\n`;
    assert.deepEqual(problemsOf(text), [
      { path: 'mail.from', message: 'is required' },
      { path: 'forms[0].path', message: 'is required' },
      { path: 'forms[0].telegram.chat_id', message: 'is required' },
      { path: 'site.base_url', message: 'is required' },
    ]);
  });

  it('rejects form paths the router would read as a parameter, a wildcard or an encoding', () => {
    for (const path of ['/contact:id', '/contact*', '/contact%20us', 'contact']) {
      const problems = problemsOf(minimal.replace('path = "/contact"', `path = "${path}"`));
      assert.deepEqual(problems.map((problem) => problem.path), ['forms[0].path'], path);
    }
    assert.ok(parseConfigText(minimal.replace('path = "/contact"', `path = "/forms/contact-us_2.v1"`), {}, '/').ok);
  });

  it('reports cross-section problems: duplicate paths, missing owner, public_url for newsletters, site for blog', () => {
    const text = `
[mail]
from = "f@example.com"
[[forms]]
path = "/a"
type = "contact"
[[forms]]
path = "/a"
type = "newsletter"
[blog]
`;
    const paths = problemsOf(text).map((problem) => problem.path).sort();
    assert.deepEqual(paths, ['forms[0].to', 'forms[1].path', 'forms[1].to', 'server.public_url', 'site']);
  });

  it('rejects keys that do not apply to the form type', () => {
    const text = `${minimal}\nsubscribers = "x.jsonl"\n[server]\npublic_url = "https://f.example.com"\n[[forms]]\npath = "/n"\ntype = "newsletter"\narchive = "n.jsonl"\n[forms.telegram]\nbot_token = "t"\nchat_id = 1\n`;
    const paths = problemsOf(text).map((problem) => problem.path).sort();
    assert.deepEqual(paths, ['forms[0].subscribers', 'forms[1].archive', 'forms[1].telegram']);
  });

  it('lists cross-section problems together with broken keys, so one run shows them all', () => {
    const text = `[[forms]]\npath = "contact"\ntype = "contakt"\narchive = 5\n[[forms]]\npath = "/n"\ntype = "newsletter"\n[blog]\nlisten = "nowhere"\n`;
    const paths = problemsOf(text).map((problem) => problem.path).sort();
    assert.deepEqual(paths, [
      'blog.listen',
      'forms[0].archive',
      'forms[0].path',
      'forms[0].type',
      'mail',
      'server.public_url',
      'site',
    ]);
  });

  it('reports a TOML syntax error with its line and column', () => {
    assert.deepEqual(problemsOf('data_dir = '), [{ path: '(toml)', message: 'invalid TOML: invalid value', line: 1, column: 12 }]);
    assert.deepEqual(problemsOf('[server]\nlisten = "127.0.0.1:8080"\nmetrics_token = "open\n'), [
      { path: '(toml)', message: 'invalid TOML: control characters are not allowed in strings', line: 3, column: 22 },
    ]);
  });
});
