// The post editor with its script in a real Chromium against a real `postbox serve` (docs/admin.md "Posts"): the
// toolbar and its keys, the live preview, the question before leaving unsaved text, the unsaved draft offered back in
// another browser (and never served by the blog), and a pasted image uploaded and put in the text. axe-core runs on
// the editor as the script leaves it, and no page may trip the Content-Security-Policy.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import { PASSWORD, testHash } from '../admin/admin-app.js';
import { seriousViolations } from './support/axe.js';
import { useServedBrowser } from './support/served-browser.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d8f5b10000000049454e44ae426082', 'hex');

const served = useServedBrowser(
  'e2e-admin-editor',
  async (dir) => {
    const posts = path.join(dir, 'posts');
    await mkdir(posts);
    const post = (title: string, body: string) => `+++\ntitle = "${title}"\ndate = 2025-03-01\n+++\n${body}\n`;
    await writeFile(path.join(posts, 'harbour.md'), post('Harbour notes', 'Boats at dawn.'));
    await writeFile(path.join(posts, 'drafts.md'), post('Drafts kept', 'What was saved.'));
    await writeFile(path.join(posts, 'lighthouse.md'), post('Lighthouse', 'A light on the rock.'));
    return {
      data_dir: path.join(dir, 'data'),
      site: { title: 'Example', base_url: 'https://blog.example' },
      blog: { listen: '127.0.0.1:0', content_dir: posts },
      admin: { users: [{ name: 'jane', password_hash: await testHash() }], secure_cookies: false },
    };
  },
  ['blog'],
);

/** A signed-in page in a browser context of its own, collecting what the CSP refused. */
async function signedIn(t: TestContext, next: string, options: { fakeClock?: boolean } = {}): Promise<{ page: Page; cspProblems: string[] }> {
  const { postbox, newPage } = served();
  const blogUrl = postbox.addresses.blog as string;
  const page = await newPage(t);
  // A clock the test can stop and move: installed before the first page loads, it runs with real time until paused.
  if (options.fakeClock) await page.clock.install();
  const cspProblems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) cspProblems.push(message.text());
  });
  await page.goto(`${blogUrl}${next}`);
  await page.getByLabel('Name', { exact: true }).fill('jane');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await Promise.all([page.waitForURL(`${blogUrl}${next}`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  return { page, cspProblems };
}

/** The unsaved drafts kept in data_dir (the first test leaves one of its own). */
async function draftTexts(dir: string): Promise<string[]> {
  const folder = path.join(dir, 'data', 'admin-drafts');
  return Promise.all((await readdir(folder)).map((name) => readFile(path.join(folder, name), 'utf8')));
}

const isDraftPost = (url: string, method: string) => method === 'POST' && new URL(url).pathname === '/admin/posts/draft';

test('the toolbar and its keys format the selection, and the live preview follows the text', { timeout: 60_000 }, async (t) => {
  const { page, cspProblems } = await signedIn(t, '/admin/posts/edit?file=harbour.md');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  await toolbar.waitFor();
  for (const name of ['Bold', 'Italic', 'Link', 'Heading', 'Quote', 'List', 'Code', 'Image']) {
    assert.ok(await toolbar.getByRole('button', { name, exact: true }).isVisible(), `the ${name} button`);
  }
  assert.deepEqual(await seriousViolations(page), [], 'axe-core on the editor with its script');

  const text = page.getByLabel('Text (Markdown)');
  assert.equal(await text.inputValue(), 'Boats at dawn.\n');
  await text.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(9, 13));
  await text.press('Control+b');
  assert.equal(await text.inputValue(), 'Boats at **dawn**.\n');
  assert.equal(await text.evaluate((element: HTMLTextAreaElement) => element.value.slice(element.selectionStart, element.selectionEnd)), 'dawn', 'the word stays selected');
  await text.press('Control+b');
  assert.equal(await text.inputValue(), 'Boats at dawn.\n', 'a second Ctrl+B takes the markers away');
  await text.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(0, 5));
  await toolbar.getByRole('button', { name: 'Italic', exact: true }).click();
  assert.equal(await text.inputValue(), '_Boats_ at dawn.\n');
  await text.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(3, 3));
  await toolbar.getByRole('button', { name: 'Heading', exact: true }).click();
  assert.equal(await text.inputValue(), '## _Boats_ at dawn.\n');

  // Typed at the end; the rendered Markdown shows in the live preview's sandboxed frame.
  const live = page.frameLocator('iframe[title="Live preview"]');
  await live.locator('h2').waitFor();
  await text.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(element.value.length, element.value.length));
  await text.pressSequentially('\n- tide *tables*', { delay: 20 });
  // No button pressed: the preview follows the typing by itself (the script asks the server about 400 ms after it stops).
  await live.locator('li em').filter({ hasText: 'tables' }).waitFor({ timeout: 5000 });
  assert.equal(await live.locator('h2 em').textContent(), 'Boats');
  assert.equal(await page.locator('iframe[title="Live preview"]').getAttribute('sandbox'), '', 'the rendered post runs nothing in the admin');
  assert.deepEqual(cspProblems, []);
});

test('unsaved text asks before leaving, is offered back in another browser, and never reaches the blog', { timeout: 90_000 }, async (t) => {
  const { dir, postbox } = served();
  const blogUrl = postbox.addresses.blog as string;
  const { page, cspProblems } = await signedIn(t, '/admin/posts/edit?file=drafts.md', { fakeClock: true });
  await page.getByRole('toolbar', { name: 'Formatting' }).waitFor();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    void dialog.accept();
  });

  // The draft reaches the server within 5 s of the last keystroke, on the page's clock: stopped while the person
  // types, then moved 5 s, however long a busy machine takes to run the page.
  const drafted = page.waitForResponse((response) => isDraftPost(response.url(), response.request().method()) && (response.request().postData() ?? '').includes('secret+rework'), { timeout: 30_000 });
  // (A moment ahead: the clock runs on while this call travels, and cannot be put back.)
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.getByLabel('Title').fill('Drafts kept, secret rework');
  await page.getByLabel('Tags').fill('kept');
  await page.getByLabel('Text (Markdown)').fill('What was saved.\n\nUnsaved words 7f3a.');
  await page.clock.runFor(5_000);
  const answer = await drafted;
  assert.equal(answer.status(), 200);
  await page.clock.resume();
  // The page says so once its script has read the answer (a moment after the response arrived).
  await page.locator('[data-draft-status]', { hasText: /Unsaved changes kept on the server/ }).waitFor({ timeout: 5_000 });

  // Leaving asks first.
  await Promise.all([page.waitForURL(`${blogUrl}/admin/posts`), page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Posts' }).click()]);
  assert.deepEqual(dialogs, ['beforeunload']);

  // Not a post: the file, the blog's API and content_dir are as they were.
  assert.match(await readFile(path.join(dir, 'posts', 'drafts.md'), 'utf8'), /title = "Drafts kept"\n/);
  const api = await (await fetch(`${blogUrl}/api/blog/posts`)).text();
  assert.match(api, /Drafts kept/);
  assert.doesNotMatch(api, /secret rework|7f3a/);
  assert.doesNotMatch(await (await fetch(`${blogUrl}/api/blog/posts/drafts`)).text(), /secret rework|7f3a/);
  assert.deepEqual((await readdir(path.join(dir, 'posts'))).sort(), ['drafts.md', 'harbour.md', 'lighthouse.md']);
  assert.equal((await draftTexts(dir)).filter((text) => text.includes('7f3a')).length, 1, 'kept in data_dir/admin-drafts');

  // Another browser: the editor offers the draft, without any script involved in the restore.
  const other = await signedIn(t, '/admin/posts/edit?file=drafts.md');
  const restore = other.page.getByRole('button', { name: /^Restore unsaved changes from / });
  await restore.waitFor();
  assert.equal(await other.page.getByLabel('Title').inputValue(), 'Drafts kept', 'the saved text until asked');
  assert.deepEqual(await seriousViolations(other.page), [], 'axe-core on the editor offering a draft');
  await Promise.all([other.page.waitForURL(/\/admin\/posts\/edit\?file=drafts\.md&restore=1$/), restore.click()]);
  assert.equal(await other.page.getByLabel('Title').inputValue(), 'Drafts kept, secret rework');
  assert.equal(await other.page.getByLabel('Tags').inputValue(), 'kept');
  assert.equal(await other.page.getByLabel('Text (Markdown)').inputValue(), 'What was saved.\n\nUnsaved words 7f3a.');
  assert.deepEqual(await seriousViolations(other.page), [], 'axe-core on the restored editor');

  // Saving writes it and removes the draft; a submit never asks.
  const otherDialogs: string[] = [];
  other.page.on('dialog', (dialog) => {
    otherDialogs.push(dialog.type());
    void dialog.accept();
  });
  await Promise.all([other.page.waitForURL(/notice=saved/), other.page.getByRole('button', { name: 'Save', exact: true }).click()]);
  assert.deepEqual(otherDialogs, []);
  assert.match(await readFile(path.join(dir, 'posts', 'drafts.md'), 'utf8'), /Unsaved words 7f3a\./);
  assert.deepEqual((await draftTexts(dir)).filter((text) => text.includes('7f3a')), [], 'the save removed the draft');
  await other.page.goto(`${blogUrl}/admin/posts/edit?file=drafts.md`);
  assert.equal(await other.page.getByRole('button', { name: /^Restore unsaved changes/ }).count(), 0);
  assert.deepEqual([...cspProblems, ...other.cspProblems], []);
});

test('a pasted image is uploaded beside the post and put in the text at the cursor', { timeout: 60_000 }, async (t) => {
  const { dir, postbox } = served();
  const blogUrl = postbox.addresses.blog as string;
  const { page, cspProblems } = await signedIn(t, '/admin/posts/edit?file=lighthouse.md');
  await page.getByRole('toolbar', { name: 'Formatting' }).waitFor();
  const text = page.getByLabel('Text (Markdown)');
  await text.evaluate((element: HTMLTextAreaElement) => element.setSelectionRange(element.value.length, element.value.length));
  const uploaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/admin/posts/upload.json');
  await text.evaluate((element: HTMLTextAreaElement, bytes: number[]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], 'pasted.png', { type: 'image/png' }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, [...PNG]);
  assert.equal((await uploaded).status(), 200);
  await page.waitForFunction(() => (document.querySelector('textarea[name="body"]') as HTMLTextAreaElement).value.includes('!['));
  assert.equal(await text.inputValue(), 'A light on the rock.\n![](pasted.png)');
  assert.deepEqual(await readFile(path.join(dir, 'posts', 'lighthouse', 'pasted.png')), PNG);
  // The post moved into a folder of its own: the form and the address follow it, so Save still finds it.
  assert.equal(await page.locator('input[name="file"]').inputValue(), 'lighthouse/index.md');
  assert.equal(page.url(), `${blogUrl}/admin/posts/edit?file=lighthouse%2Findex.md`);
  assert.ok(await page.getByRole('button', { name: 'Insert pasted.png' }).isVisible());
  // The cursor waits between the brackets for the image's description.
  await text.pressSequentially('A lighthouse at dusk');
  await Promise.all([page.waitForURL(/notice=saved/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  assert.match(await readFile(path.join(dir, 'posts', 'lighthouse', 'index.md'), 'utf8'), /A light on the rock\.\n!\[A lighthouse at dusk\]\(pasted\.png\)/);
  assert.deepEqual(cspProblems, []);
});
