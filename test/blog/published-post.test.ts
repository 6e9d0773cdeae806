// BlogService.findPublishedPost, which campaigns mail from: the published version of a slug with its page URL,
// the detail's HTML (media URLs absolute) and an RFC 3339 date; drafts and scheduled versions are not found. And
// the versions published now as the newsletter's automations list them, with their front matter `newsletter`.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTempDir } from '../support/temp-dir.js';
import { waitFor } from '../support/wait.js';
import { createFakeTime } from './fake-time.js';
import { startBlog, type RunningBlog } from './fixture.js';

const NOW = Date.parse('2024-06-01T12:00:00Z');

/** A content folder: a folder post with an image in English (primary) and German, plus a draft and a scheduled version. */
async function writeContent(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'trip'));
  await writeFile(path.join(dir, 'trip', 'index.md'), '+++\ntitle = "A trip"\ndate = 2024-05-01T10:00:00+02:00\n+++\nLook: ![A hill](hill.jpg)\n');
  await writeFile(path.join(dir, 'trip', 'index.pt-br.md'), '+++\ntitle = "Uma viagem"\ndate = 2024-05-02\n+++\nOlá\n');
  await writeFile(path.join(dir, 'trip', 'index.fr.md'), '+++\ntitle = "Un voyage"\ndate = 2024-05-02\ndraft = true\n+++\nBrouillon\n');
  await writeFile(path.join(dir, 'trip', 'index.de.md'), '+++\ntitle = "Eine Reise"\ndate = 2024-07-01\n+++\nSpäter\n');
  await writeFile(path.join(dir, 'later.md'), '+++\ntitle = "Later"\ndate = 2024-06-02\n+++\nNot yet\n');
  await writeFile(path.join(dir, 'sketch.md'), '+++\ntitle = "Sketch"\ndate = 2024-01-01\ndraft = true\n+++\nDraft\n');
  await writeFile(path.join(dir, 'notes.md'), '---\ntitle: Notes\ndate: 2024-04-01\nnewsletter: false\n---\nFor the site only\n');
}

describe('BlogService.findPublishedPost', () => {
  let blog: RunningBlog;
  let remove: () => Promise<void>;
  const time = createFakeTime(NOW);

  before(async () => {
    const temp = await createTempDir('published-post');
    remove = temp.remove;
    await writeContent(temp.dir);
    blog = await startBlog(temp.dir, { deps: { clock: time.clock, timers: time } });
  });
  after(async () => {
    await blog.close();
    await remove();
  });

  it('gives the primary version with its page URL, the detail HTML and an RFC 3339 date', async () => {
    const post = blog.content.findPublishedPost('trip');
    assert.ok(post);
    const detail = await blog.request('/api/blog/posts/trip');
    assert.deepEqual(post, {
      slug: 'trip',
      lang: 'en',
      title: 'A trip',
      url: 'https://blog.example.com/blog/trip',
      html: detail.json.html,
      date: '2024-05-01T10:00:00+02:00',
    });
    assert.match(post.html, /src="https:\/\/blog\.example\.com\/api\/blog\/media\/trip\/hill\.jpg"/, 'media URL absolute');
  });

  it('gives a translation by its language code, compared like the API does', () => {
    const post = blog.content.findPublishedPost('trip', 'PT-br');
    assert.equal(post?.lang, 'pt-BR');
    assert.equal(post?.title, 'Uma viagem');
    assert.equal(post?.date, '2024-05-02T00:00:00Z');
    assert.equal(post?.url, 'https://blog.example.com/pt-BR/blog/trip', 'translation_url');
    assert.equal(blog.content.findPublishedPost('trip', 'en')?.title, 'A trip');
  });

  it('does not find drafts, scheduled versions, unknown slugs or languages', () => {
    assert.equal(blog.content.findPublishedPost('trip', 'fr'), undefined, 'draft translation');
    assert.equal(blog.content.findPublishedPost('trip', 'de'), undefined, 'scheduled translation');
    assert.equal(blog.content.findPublishedPost('trip', 'it'), undefined, 'no such language');
    assert.equal(blog.content.findPublishedPost('sketch'), undefined, 'draft');
    assert.equal(blog.content.findPublishedPost('later'), undefined, 'scheduled');
    assert.equal(blog.content.findPublishedPost('nothing'), undefined);
  });

  it('finds a scheduled post once it is due', async () => {
    await time.advance(Date.parse('2024-06-02T00:00:00Z') - NOW);
    const post = await waitFor('the release', () => blog.content.findPublishedPost('later'), 5000);
    assert.equal(post.title, 'Later');
  });

  it('lists the versions published now for the automations, newest first, with their front matter newsletter', () => {
    // "later" came due in the test before.
    assert.deepEqual(
      blog.content.listPublished().map((version) => `${version.slug} ${version.lang} ${new Date(version.publishedAt).toISOString()} newsletter=${version.newsletter} primary=${version.primary}`),
      [
        'later en 2024-06-02T00:00:00.000Z newsletter=true primary=true',
        'trip pt-BR 2024-05-02T00:00:00.000Z newsletter=true primary=false',
        'trip en 2024-05-01T08:00:00.000Z newsletter=true primary=true',
        'notes en 2024-04-01T00:00:00.000Z newsletter=false primary=true',
      ],
    );
  });
});
