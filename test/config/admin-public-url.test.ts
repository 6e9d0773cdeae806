// The address /admin's own links are built on (docs/configuration.md "[admin]"): `[admin] public_url`, else the
// public_url of the service whose listener serves /admin, never site.base_url (the site is often elsewhere).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EXAMPLE_PASSWORD_HASH } from '../../src/admin/example-user.js';
import { parseConfigText } from '../../src/config/load.js';

const site = '[site]\ntitle = "Blog"\nbase_url = "http://localhost:3000"\n';
const admin = (extra = '') => `[admin]\nusers = [{ name = "jane", password_hash = "${EXAMPLE_PASSWORD_HASH}" }]\n${extra}\n`;
const forms = '[mail]\nfrom = "Forms <forms@example.com>"\nto = "owner@example.com"\n[server]\npublic_url = "https://forms.example.com"\n[[forms]]\npath = "/contact"\ntype = "contact"\n';

function adminUrl(text: string): string | undefined {
  const result = parseConfigText(text, {}, '/srv/site');
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.problems));
  return result.config.admin?.public_url;
}

describe('[admin] public_url', () => {
  it("follows the blog's public_url when /admin is on the blog's listener, not site.base_url", () => {
    assert.equal(adminUrl(`${site}[blog]\nlisten = "127.0.0.1:8081"\npublic_url = "https://api.example.com"\n${admin()}`), 'https://api.example.com');
    assert.equal(adminUrl(`${site}[blog]\nlisten = "127.0.0.1:8081"\n${admin()}`), undefined, 'no address given: the one a request came to');
  });

  it("follows server.public_url when /admin is on the forms service's listener", () => {
    assert.equal(adminUrl(`${forms}${admin()}`), 'https://forms.example.com');
  });

  it('is [admin] public_url when given, and decides secure_cookies by default', () => {
    const text = `${site}[blog]\nlisten = "127.0.0.1:8081"\npublic_url = "http://127.0.0.1:8081"\n${admin('public_url = "https://admin.example.com/"')}`;
    assert.equal(adminUrl(text), 'https://admin.example.com');
    const result = parseConfigText(text, {}, '/srv/site');
    assert.ok(result.ok && result.config.admin?.secure_cookies === true);
  });

  it("points the example's invitation links at the listener /admin runs on", () => {
    const example = readFileSync(new URL('../../examples/config.toml', import.meta.url), 'utf8');
    assert.equal(adminUrl(example), 'http://localhost:8081');
  });
});
