// `[admin] time_zone` (docs/configuration.md "[admin]"): the IANA zone the admin pages show times in, "UTC" by
// default, checked with Intl.DateTimeFormat and kept in its canonical spelling.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE_PASSWORD_HASH } from '../../src/admin/example-user.js';
import { parseConfigText } from '../../src/config/load.js';

const base = (extra: string) => `
[site]
title = "Blog"
base_url = "https://example.com"

[blog]
listen = "127.0.0.1:8081"

[admin]
users = [{ name = "jane", password_hash = "${EXAMPLE_PASSWORD_HASH}" }]
${extra}
`;

function parse(extra: string) {
  return parseConfigText(base(extra), {}, '/srv/site');
}

describe('[admin] time_zone', () => {
  it('is "UTC" by default', () => {
    const result = parse('');
    assert.ok(result.ok);
    assert.equal(result.config.admin?.time_zone, 'UTC');
  });

  it('takes an IANA name, in its canonical spelling', () => {
    for (const [given, kept] of [
      ['Europe/Berlin', 'Europe/Berlin'],
      ['america/new_york', 'America/New_York'],
      ['utc', 'UTC'],
    ]) {
      const result = parse(`time_zone = "${given}"`);
      assert.ok(result.ok, given);
      assert.equal(result.config.admin?.time_zone, kept);
    }
  });

  it('refuses what is no time zone, at its key path', () => {
    for (const given of ['Mars/Olympus_Mons', '', 'Berlin']) {
      const result = parse(`time_zone = "${given}"`);
      assert.equal(result.ok, false, given);
      if (result.ok) continue;
      assert.deepEqual(
        result.problems.map((problem) => `${problem.path}: ${problem.message}`),
        ['admin.time_zone: must be an IANA time zone name such as "UTC" or "Europe/Berlin"'],
      );
    }
    const wrongType = parse('time_zone = 1');
    assert.equal(wrongType.ok, false);
    assert.equal(wrongType.ok ? '' : wrongType.problems[0]?.path, 'admin.time_zone');
  });

  // Intl on Node.js 22 and 24 takes a UTC offset as a zone (older versions threw): the configuration refuses it all
  // the same. An offset follows no daylight saving time; a fixed zone has an IANA name ("Etc/GMT-1" is UTC+01:00).
  it('refuses a UTC offset in any spelling, and takes the Etc/ zone of a fixed offset', () => {
    for (const given of ['+01:00', '+0100', '+01', '-05:30', '+00:00', '\u221201:00']) {
      const result = parse(`time_zone = "${given}"`);
      assert.equal(result.ok, false, given);
      if (result.ok) continue;
      assert.deepEqual(
        result.problems.map((problem) => `${problem.path}: ${problem.message}`),
        ['admin.time_zone: must be an IANA time zone name such as "UTC" or "Europe/Berlin"'],
      );
    }
    const fixed = parse('time_zone = "Etc/GMT-1"');
    assert.ok(fixed.ok);
    assert.equal(fixed.config.admin?.time_zone, 'Etc/GMT-1');
  });
});
