// [forms.spam] (docs/spam.md "The keys"): defaults that turn every rule off, and each bad value refused at its key path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigText, type LoadResult } from '../../src/config/load.js';
import { toToml, type TomlTable } from '../support/config.js';

function loadWithSpam(spam: TomlTable | undefined, extra: TomlTable = {}): LoadResult {
  const form = { path: '/contact', type: 'contact', ...extra, ...(spam === undefined ? {} : { spam }) };
  return parseConfigText(toToml({ mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: [form] }), {}, '/srv');
}

function problemsOf(result: LoadResult): string[] {
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

describe('[forms.spam]', () => {
  it('is off when left out: no proof of work, no rules, quarantine, 30 days', () => {
    const result = loadWithSpam(undefined);
    assert.ok(result.ok);
    const [form] = result.config.forms;
    assert.deepEqual(form?.spam, { proof_of_work: false, min_seconds: 3, challenge_expires_seconds: 600, block_disposable: false, blocked_words: [], action: 'quarantine' });
    assert.equal(form?.spam_keep_days, 30);
  });

  it('takes every key', () => {
    const spam = { proof_of_work: true, min_seconds: 5, challenge_expires_seconds: 1200, max_links: 2, block_disposable: true, languages: ['en', 'de'], blocked_words: ['casino'], captcha: { provider: 'hcaptcha', secret: 's' }, action: 'reject' };
    const result = loadWithSpam(spam, { spam_keep_days: 7 });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.deepEqual(result.config.forms[0]?.spam, spam);
    assert.equal(result.config.forms[0]?.spam_keep_days, 7);
  });

  it('refuses unknown languages, actions and providers, and a misspelt key, each at its key path', () => {
    assert.match(problemsOf(loadWithSpam({ languages: ['english'] })).join('\n'), /forms\[0\]\.spam\.languages\[0\]: "english" is not an ISO 639-1 code/);
    assert.match(problemsOf(loadWithSpam({ action: 'drop' })).join('\n'), /forms\[0\]\.spam\.action: must be "quarantine" or "reject"/);
    assert.match(problemsOf(loadWithSpam({ captcha: { provider: 'recaptcha', secret: 's' } })).join('\n'), /forms\[0\]\.spam\.captcha\.provider/);
    assert.match(problemsOf(loadWithSpam({ proof_of_wrok: true })).join('\n'), /forms\[0\]\.spam/);
    assert.match(problemsOf(loadWithSpam({ challenge_expires_seconds: 5 })).join('\n'), /challenge_expires_seconds: must be at least 30/);
  });

  it('reserves /altcha.js', () => {
    const result = parseConfigText(toToml({ mail: { from: 'forms@example.com', to: 'owner@example.com' }, forms: [{ path: '/altcha.js', type: 'contact' }] }), {}, '/srv');
    assert.match(problemsOf(result).join('\n'), /forms\[0\]\.path: is reserved/);
  });
});
