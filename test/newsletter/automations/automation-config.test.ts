// The keys of on_publish and digest automations (docs/configuration.md "[[newsletter.automations]]"): their
// defaults, what is refused at load, the warning of `postbox check` when they cannot run, and the commented example
// of examples/config.toml, which loads and runs once uncommented.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { describeConfig } from '../../../src/cli/check-summary.js';
import { parseConfigText } from '../../../src/config/load.js';

const CONFIG = `
[server]
public_url = "https://forms.example.com"
[mail]
from = "forms@example.com"
to = "owner@example.com"
[[forms]]
path = "/newsletter"
type = "newsletter"
[[newsletter.lists]]
id = "product"
[[newsletter.segments]]
id = "beta"
list = "newsletter"
tags_include = ["beta"]
`;

const problemsOf = (extra: string) => {
  const result = parseConfigText(`${CONFIG}${extra}`, {}, '/tmp');
  return result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`);
};

describe('on_publish and digest keys', () => {
  it('reads an on_publish over a segment and a digest with its defaults', () => {
    const result = parseConfigText(
      `${CONFIG}[[newsletter.automations]]\nid = "posts"\ntype = "on_publish"\nsegment = "beta"\n[[newsletter.automations]]\nid = "monthly"\ntype = "digest"\nlist = "newsletter"\nsubject = "{{count}} posts"\nevery = "month"\n`,
      {},
      '/tmp',
    );
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.deepEqual(result.config.newsletter.automations, [
      { id: 'posts', type: 'on_publish', segment: 'beta', subject: '{{title}}' },
      { id: 'monthly', type: 'digest', list: 'newsletter', subject: '{{count}} posts', body: '', every: 'month', day: 1, time: '09:00' },
    ]);
  });

  it('refuses neither or both of list and segment, an unknown segment or list, and a bad time, and takes a list without a form', () => {
    assert.deepEqual(problemsOf('[[newsletter.automations]]\nid = "a"\ntype = "on_publish"\n'), ['newsletter.automations[0].list: give either list or segment: whom the posts are mailed to']);
    assert.deepEqual(problemsOf('[[newsletter.automations]]\nid = "a"\ntype = "on_publish"\nlist = "newsletter"\nsegment = "beta"\n'), [
      'newsletter.automations[0].list: give either list or segment: whom the posts are mailed to',
    ]);
    assert.deepEqual(problemsOf('[[newsletter.automations]]\nid = "a"\ntype = "on_publish"\nsegment = "nope"\n'), ['newsletter.automations[0].segment: "nope" is no segment: declare it in [[newsletter.segments]]']);
    assert.deepEqual(problemsOf('[[newsletter.automations]]\nid = "a"\ntype = "on_publish"\nlist = "product"\n'), [], 'a list without a form is a list too');
    assert.deepEqual(problemsOf('[[newsletter.automations]]\nid = "a"\ntype = "on_publish"\nlist = "nope"\n'), [
      'newsletter.automations[0].list: "nope" is no list: declare it in [[newsletter.lists]] or give a newsletter form that list',
    ]);
    assert.deepEqual(problemsOf('[[newsletter.automations]]\nid = "a"\ntype = "digest"\nlist = "newsletter"\nsubject = "Hi"\nevery = "day"\nday = 29\n'), [
      'newsletter.automations[0].every: must be "week" or "month"',
      'newsletter.automations[0].day: Too big: expected number to be <=28',
    ]);
  });

  it('warns in postbox check when they cannot run: no blog', () => {
    const result = parseConfigText(`${CONFIG}[[newsletter.automations]]\nid = "posts"\ntype = "on_publish"\nlist = "newsletter"\n`, {}, '/tmp');
    assert.ok(result.ok);
    assert.match(describeConfig(result.config), /warning: the automations posts never run: mailing posts needs \[blog\], \[site\] and \[mail\] queue = true/);
  });

  it('loads the commented example of examples/config.toml once uncommented, with nothing to warn about', () => {
    const file = new URL('../../../examples/config.toml', import.meta.url);
    const lines = readFileSync(file, 'utf8').split('\n');
    const start = lines.indexOf(lines.find((line) => line.startsWith('# [[newsletter.automations]]'))!);
    assert.ok(start > 0, 'the example is there');
    let end = start;
    while (lines[end]?.startsWith('# ')) end += 1;
    const uncommented = [...lines.slice(0, start), ...lines.slice(start, end).map((line) => line.slice(2)), ...lines.slice(end)].join('\n');
    const result = parseConfigText(uncommented, {}, fileURLToPath(new URL('.', file)));
    assert.ok(result.ok, JSON.stringify(!result.ok && result.problems));
    assert.deepEqual(
      result.config.newsletter.automations.map((automation) => [automation.id, automation.type]),
      [['hello', 'welcome'], ['posts', 'on_publish'], ['weekly', 'digest']],
    );
    assert.doesNotMatch(describeConfig(result.config), /automations?[^\n]*never run/);
  });
});
