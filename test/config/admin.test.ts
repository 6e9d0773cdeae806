import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_PASSWORD_HASH } from '../../src/admin/example-user.js';
import { adminWarnings } from '../../src/admin/example-user.js';
import { describeConfig } from '../../src/cli/check-summary.js';
import { parseConfigText } from '../../src/config/load.js';

const blog = `
[site]
title = "Blog"
base_url = "https://example.com"

[blog]
listen = "127.0.0.1:8081"
`;
const forms = `
[mail]
from = "Forms <forms@example.com>"
to = "owner@example.com"
[server]
public_url = "http://forms.example.com"

[[forms]]
path = "/contact"
type = "contact"
`;
const admin = (extra = '', users = `{ name = "jane", password_hash = "${EXAMPLE_PASSWORD_HASH}" }`) => `
[admin]
users = [${users}]
${extra}
`;

function parse(text: string) {
  return parseConfigText(text, {}, '/srv/site');
}

function problems(text: string): string[] {
  const result = parse(text);
  assert.equal(result.ok, false, 'expected the config to be rejected');
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
}

describe('[admin]', () => {
  it('has the defaults of docs/configuration.md; secure cookies follow site.base_url', () => {
    const result = parse(blog + admin());
    assert.ok(result.ok);
    assert.equal(result.config.admin?.session_hours, 12);
    assert.equal(result.config.admin?.max_upload_bytes, 10 * 1024 * 1024);
    assert.equal(result.config.admin?.secure_cookies, true);
    const plain = parse(blog.replace('https://', 'http://') + admin());
    assert.ok(plain.ok);
    assert.equal(plain.config.admin?.secure_cookies, false);
    const forced = parse(blog.replace('https://', 'http://') + admin('secure_cookies = true'));
    assert.ok(forced.ok);
    assert.equal(forced.config.admin?.secure_cookies, true);
  });

  it('without [blog] follows server.public_url and is served by the forms service', () => {
    const result = parse(forms + admin());
    assert.ok(result.ok);
    assert.equal(result.config.admin?.secure_cookies, false);
    assert.match(describeConfig(result.config), /admin at 127\.0\.0\.1:8080\/admin, users: jane/);
  });

  it('needs at least one user, each with a hash from hash-password, names listed once', () => {
    assert.deepEqual(problems(blog + '[admin]\nusers = []\n'), ['admin.users: must list at least one user (make a password_hash with "postbox hash-password")']);
    assert.deepEqual(problems(blog + '[admin]\n'), ['admin.users: is required']);
    assert.match(problems(blog + admin('', '{ name = "jane", password_hash = "secret" }')).join('\n'), /admin\.users\[0\]\.password_hash: must be a hash from "postbox hash-password"/);
    assert.match(
      problems(blog + admin('', `{ name = "jane", password_hash = "${EXAMPLE_PASSWORD_HASH.replace('N=32768', 'N=1024')}" }`)).join('\n'),
      /password_hash: N must be a power of 2/,
    );
    const twice = `{ name = "jane", password_hash = "${EXAMPLE_PASSWORD_HASH}" }`;
    assert.deepEqual(problems(blog + admin('', `${twice}, ${twice}`)), ['admin.users[1].name: is listed twice']);
    assert.match(problems(blog + admin('', `{ name = "a\\nb", password_hash = "${EXAMPLE_PASSWORD_HASH}" }`)).join('\n'), /admin\.users\[0\]\.name: must be one line/);
  });

  it('bounds the session and upload keys, and refuses unknown keys', () => {
    assert.match(problems(blog + admin('session_hours = 200')).join('\n'), /admin\.session_hours: must be at most 168/);
    assert.match(problems(blog + admin('session_hours = 0')).join('\n'), /admin\.session_hours: must be more than 0/);
    assert.match(problems(blog + admin('max_upload_bytes = 0')).join('\n'), /admin\.max_upload_bytes/);
    assert.match(problems(blog + admin('session_hour = 2')).join('\n'), /admin\.session_hour: unknown key \(did you mean session_hours\?\)/);
  });

  it('is an error without [blog] or [[forms]] to serve it', () => {
    assert.ok(problems(admin()).includes('admin: needs [blog] or [[forms]]: /admin is served on their listener'));
  });

  it('check warns about the example password only where others can reach the admin', () => {
    const local = parse(blog + admin());
    assert.ok(local.ok);
    assert.deepEqual(adminWarnings(local.config), []);
    const exposed = parse(blog.replace('127.0.0.1:8081', '0.0.0.0:8081') + admin());
    assert.ok(exposed.ok);
    assert.match(describeConfig(exposed.config), /warning: \[admin\] user "jane" has the example password/);
  });
});
