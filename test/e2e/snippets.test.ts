// The snippets of docs/embedding.md agree with each other and with the config schema, before any browser runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfigText } from '../../src/config/load.js';
import { extractSnippets, loadSnippets, PLACEHOLDERS } from './support/snippets.js';

test('the marked blocks are extracted verbatim, and a marker without a block is an error', () => {
  const markdown = 'Text\n\n<!-- snippet: a.html -->\n```html\n<p>one</p>\n\n<p>two</p>\n```\n\n```html\n<p>unmarked</p>\n```\n';
  assert.deepEqual([...extractSnippets(markdown)], [['a.html', '<p>one</p>\n\n<p>two</p>\n']]);
  assert.throws(() => extractSnippets('<!-- snippet: b.html -->\n\nno block\n'), /not followed by a code block/);
});

test('the documented config is valid as written, and every snippet posts to a form it declares', async () => {
  const snippets = await loadSnippets();
  const loaded = parseConfigText(snippets['config.toml'], { SMTP_PASSWORD: 'secret' }, '/srv/postbox');
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const forms = new Map(loaded.config.forms.map((form) => [form.path, form]));

  const posting = {
    'contact-form.html': '/contact',
    'contact-form-multipart.html': '/contact',
    'contact-fetch.html': '/contact-js',
    'newsletter-signup.html': '/newsletter',
  } as const;
  for (const [name, formPath] of Object.entries(posting)) {
    const snippet = snippets[name as keyof typeof posting];
    assert.ok(snippet.includes(`'${PLACEHOLDERS.forms}${formPath}'`) || snippet.includes(`"${PLACEHOLDERS.forms}${formPath}"`), `${name} posts to ${formPath}`);
    const form = forms.get(formPath);
    assert.ok(form, `${formPath} is configured`);
    assert.deepEqual(form.allowed_origins, [PLACEHOLDERS.site]);
    assert.ok(snippet.includes(`name="${form.honeypot_field}" type="text" tabindex="-1" autocomplete="off"`), `${name} has the honeypot`);
  }
  assert.ok(forms.get('/contact')?.redirect_url, 'the plain form needs redirect_url');
  assert.equal(forms.get('/contact-js')?.redirect_url, undefined, 'fetch must not be redirected');
  assert.equal(forms.get('/newsletter')?.redirect_url, undefined, 'fetch must not be redirected');
  assert.equal(loaded.config.server.public_url, PLACEHOLDERS.forms);
  assert.equal(loaded.config.site?.base_url, PLACEHOLDERS.site);
  assert.ok(snippets['latest-posts.html'].includes(`'${PLACEHOLDERS.blog}/api/blog'`));
});
