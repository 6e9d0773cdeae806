// The snippets of docs/site-generators.md are the example sites' files as they are, which the tests build: a block
// marked `<!-- snippet: astro/src/pages/index.astro -->` is examples/astro/src/pages/index.astro word for word.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { it } from 'node:test';
import { REPO_ROOT } from '../support/postbox-process.js';
import { extractSnippets } from '../e2e/support/snippets.js';

it('every snippet of docs/site-generators.md is the example file it names', async () => {
  const snippets = extractSnippets(await readFile(path.join(REPO_ROOT, 'docs/site-generators.md'), 'utf8'));
  const examples = [...snippets.keys()].filter((name) => name.includes('/'));
  for (const generator of ['astro/', 'eleventy/']) assert.ok(examples.some((name) => name.startsWith(generator)), `snippets of ${generator}`);
  for (const name of examples) assert.equal(snippets.get(name), await readFile(path.join(REPO_ROOT, 'examples', name), 'utf8'), `examples/${name}`);
});
