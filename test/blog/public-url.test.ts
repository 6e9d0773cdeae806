// `[blog] public_url` (docs/configuration.md "[site] and [blog]"): where the blog API is reached from outside. The
// images beside a post are linked on it in the API's detail, in both feeds and in the HTML a newsletter mails;
// the post's own page stays on site.base_url. Without it, media URLs are built on site.base_url as before.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderCampaignContent } from '../../src/newsletter/campaigns/campaign-mail.js';
import { createTempDir } from '../support/temp-dir.js';
import { startBlog } from './fixture.js';

let temp: { dir: string; remove: () => Promise<void> };
before(async () => {
  temp = await createTempDir('blog-public-url');
  mkdirSync(path.join(temp.dir, 'trip'));
  writeFileSync(path.join(temp.dir, 'trip', 'index.md'), '+++\ntitle = "Trip"\ndate = 2024-01-01\n+++\n\n![The lake](lake.png)\n');
  writeFileSync(path.join(temp.dir, 'trip', 'lake.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
});
after(async () => {
  await temp.remove();
});

describe('[blog] public_url', () => {
  it('is where media URLs point in the API, the feeds and a newsletter; pages stay on site.base_url', async () => {
    const blog = await startBlog(temp.dir, { overrides: { blog: { public_url: 'http://127.0.0.1:8081/' } } });
    try {
      assert.equal(blog.config.blog?.public_url, 'http://127.0.0.1:8081', 'the trailing slash is dropped');
      const media = 'http://127.0.0.1:8081/api/blog/media/trip/lake.png';
      const detail = (await blog.request('/api/blog/posts/trip')).json;
      assert.match(detail.html, new RegExp(`<img src="${media}" alt="The lake" />`));
      const json = (await blog.request('/api/blog/feed.json')).json;
      assert.match(json.items[0].content_html, new RegExp(`src="${media}"`));
      assert.equal(json.items[0].url, 'https://blog.example.com/blog/trip', 'the public page is on site.base_url');
      assert.equal(json.feed_url, 'http://127.0.0.1:8081/api/blog/feed.json');
      const rss = (await blog.request('/api/blog/feed.xml')).body;
      assert.ok(rss.includes(`src="${media}"`) || rss.includes(`src=&quot;${media}&quot;`), rss);

      const post = blog.content.findPublishedPost('trip');
      assert.ok(post);
      const mail = renderCampaignContent(post, { title: 'Fixture Blog', baseUrl: 'https://blog.example.com' });
      assert.match(mail.html, new RegExp(`src="${media}"`));
    } finally {
      await blog.close();
    }
  });

  it('defaults to site.base_url', async () => {
    const blog = await startBlog(temp.dir);
    try {
      assert.equal(blog.config.blog?.public_url, 'https://blog.example.com');
      const detail = (await blog.request('/api/blog/posts/trip')).json;
      assert.match(detail.html, /<img src="https:\/\/blog\.example\.com\/api\/blog\/media\/trip\/lake\.png"/);
    } finally {
      await blog.close();
    }
  });
});
