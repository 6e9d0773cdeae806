// `[blog.git]` (docs/configuration.md "[blog.git]"): its defaults, a remote that is a folder resolved against the
// config file's folder (a URL or an scp-like address kept as written), and every wrong value refused at its key
// path: a remote that is an option or a remote helper, a branch git would refuse, a pull interval out of range, and
// an unknown key with the known one it nearly spells.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfigText } from '../../src/config/load.js';

const withGit = (table: string) => `
[site]
title = "Blog"
base_url = "https://example.com/"

[blog]
content_dir = "posts"

[blog.git]
${table}
`;

const problemsOf = (table: string) => {
  const result = parseConfigText(withGit(table), {}, '/srv/site');
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
};

describe('[blog.git]', () => {
  it('is off unless enabled, on "main", fetching every 10 seconds', () => {
    const result = parseConfigText(withGit('enabled = true'), {}, '/srv/site');
    assert.ok(result.ok);
    assert.deepEqual(result.config.blog?.git, { enabled: true, branch: 'main', pull_seconds: 10, remote: undefined });
    const without = parseConfigText(withGit('').replace('[blog.git]', ''), {}, '/srv/site');
    assert.ok(without.ok);
    assert.equal(without.config.blog?.git, undefined);
  });

  it('resolves a remote that is a folder against the config file\u2019s folder, and keeps URLs as written', () => {
    const remoteOf = (remote: string) => {
      const result = parseConfigText(withGit(`enabled = true\nremote = "${remote}"`), {}, '/srv/site');
      assert.ok(result.ok, remote);
      return result.config.blog?.git?.remote;
    };
    assert.equal(remoteOf('../repos/site.git'), '/srv/repos/site.git');
    assert.equal(remoteOf('/var/git/site.git'), '/var/git/site.git');
    for (const url of ['git@github.com:owner/site.git', 'ssh://git@git.example.com:2222/site.git', 'https://git.example.com/site.git', 'file:///var/git/site.git']) {
      assert.equal(remoteOf(url), url);
    }
  });

  it('refuses wrong values at their key paths', () => {
    assert.deepEqual(problemsOf('remote = "--upload-pack=touch"'), ['blog.git.remote: must not start with "-"']);
    assert.match(problemsOf('remote = "ext::sh -c touch% /tmp/x"')[0]!, /^blog\.git\.remote: must be a git URL without spaces/);
    assert.match(problemsOf('remote = "ext::ssh"')[0]!, /^blog\.git\.remote: .*no "<transport>::" remote helpers/);
    assert.match(problemsOf('remote = "ftp://example.com/site.git"')[0]!, /^blog\.git\.remote: must use the scheme ssh, https, http, git or file/);
    for (const branch of ['', '-b', 'a..b', 'a b', 'feature/', 'x.lock', '.hidden', 'a/.b', 'a~1', 'a:b', 'HEAD@{1}']) {
      assert.match(problemsOf(`branch = ${JSON.stringify(branch)}`)[0] ?? '', /^blog\.git\.branch: must be a branch name/, branch);
    }
    assert.deepEqual(problemsOf('branch = "site/posts"'), []);
    assert.match(problemsOf('pull_seconds = -1')[0]!, /^blog\.git\.pull_seconds: must be 0/);
    assert.match(problemsOf('pull_seconds = 0.01')[0]!, /^blog\.git\.pull_seconds: must be 0 \(no periodic fetch\) or at least 0\.1/);
    assert.match(problemsOf('pull_seconds = 7200')[0]!, /^blog\.git\.pull_seconds: must be at most 3600/);
    assert.deepEqual(problemsOf('pull_seconds = 0'), []);
    assert.deepEqual(problemsOf('enabeld = true'), ['blog.git.enabeld: unknown key (did you mean enabled?)']);
  });
});
