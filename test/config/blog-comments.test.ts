// [blog.comments] (docs/configuration.md "[blog.comments]"): off by default, its defaults, proof of work on unless
// turned off, and each bad value refused at its key path.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigText, type LoadResult } from '../../src/config/load.js';
import { toToml, type TomlTable } from '../support/config.js';

function loadWithComments(comments: TomlTable | undefined, extra: TomlTable = {}): LoadResult {
  const blog = { content_dir: '.', ...(comments === undefined ? {} : { comments }) };
  return parseConfigText(toToml({ site: { title: 'Blog', base_url: 'https://blog.example.com' }, blog, ...extra }), {}, '/srv');
}

function problemsOf(result: LoadResult): string {
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? '' : result.problems.map((problem) => `${problem.path}: ${problem.message}`).join('\n');
}

describe('[blog.comments]', () => {
  it('is off when left out, with moderation "first", 10 an hour and proof of work on', () => {
    const result = loadWithComments(undefined);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    const comments = result.config.blog?.comments;
    assert.equal(comments?.enabled, false);
    assert.equal(comments?.moderation, 'first');
    assert.deepEqual(comments?.allowed_origins, []);
    assert.equal(comments?.close_after_days, undefined);
    assert.equal(comments?.rate_limit_per_hour, 10);
    assert.equal(comments?.spam.proof_of_work, true);
  });

  it('keeps proof of work on beside other spam keys, and off when asked', () => {
    const withRules = loadWithComments({ enabled: true, spam: { max_links: 1 } });
    assert.ok(withRules.ok);
    assert.equal(withRules.config.blog?.comments.spam.proof_of_work, true);
    assert.equal(withRules.config.blog?.comments.spam.max_links, 1);
    const off = loadWithComments({ enabled: true, spam: { proof_of_work: false } });
    assert.ok(off.ok);
    assert.equal(off.config.blog?.comments.spam.proof_of_work, false);
  });

  it('takes every key', () => {
    const result = loadWithComments({ enabled: true, moderation: 'none', allowed_origins: ['https://www.example.com'], close_after_days: 30, rate_limit_per_hour: 0 });
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    const comments = result.config.blog?.comments;
    assert.equal(comments?.moderation, 'none');
    assert.deepEqual(comments?.allowed_origins, ['https://www.example.com']);
    assert.equal(comments?.close_after_days, 30);
    assert.equal(comments?.rate_limit_per_hour, 0);
  });

  it('refuses bad values and unknown keys at their key paths', () => {
    assert.match(problemsOf(loadWithComments({ moderation: 'some' })), /blog\.comments\.moderation: must be "first", "all" or "none"/);
    assert.match(problemsOf(loadWithComments({ close_after_days: 0 })), /blog\.comments\.close_after_days: must be at least 1/);
    assert.match(problemsOf(loadWithComments({ allowed_origins: ['not an origin'] })), /blog\.comments\.allowed_origins\[0\]/);
    assert.match(problemsOf(loadWithComments({ enabeld: true })), /blog\.comments/);
    assert.match(problemsOf(loadWithComments({ spam: { action: 'drop' } })), /blog\.comments\.spam\.action/);
  });
});
