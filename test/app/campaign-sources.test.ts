// What `postbox newsletter send` reads a campaign from: the blog's posts, loaded once and let go of once the campaign
// is planned, so that a command watching a long campaign keeps neither the posts nor the `q` index build.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, it } from 'node:test';
import { openBackend } from '../../src/app/open-backend.js';
import { loadCampaignSources } from '../../src/app/campaign-sources.js';
import { createSilentLogger } from '../../src/kit/log.js';
import { loadTestConfig } from '../support/config.js';
import { createTempDir } from '../support/temp-dir.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The bytes of the heap still reachable. */
function heapInUse(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const POSTS = 3000;

describe('loadCampaignSources', () => {
  it('finds a published post until the posts are released, then keeps nothing of the blog', async () => {
    const temp = await createTempDir('campaign-sources');
    try {
      const posts = path.join(temp.dir, 'posts');
      await mkdir(path.join(posts, 'roses'), { recursive: true });
      await writeFile(path.join(posts, 'roses', 'index.md'), '+++\ntitle = "Roses"\ndate = 2026-03-02\n+++\n\nRed.\n');
      const paragraph = 'The garden opens at nine, the greenhouse at ten; the roses are pruned in March. '.repeat(12);
      for (let i = 0; i < POSTS; i++) {
        await writeFile(path.join(posts, `day-${i}.md`), `+++\ntitle = "Day ${i}"\ndate = 2026-03-01\ntags = ["garden", "day-${i}"]\n+++\n\n${paragraph}${i}\n`);
      }
      const config = loadTestConfig(
        {
          data_dir: path.join(temp.dir, 'data'),
          server: { listen: '127.0.0.1:0', public_url: 'https://forms.example.com' },
          mail: { transport: 'file', from: 'News <news@example.com>', to: 'owner@example.com' },
          forms: [{ path: '/newsletter', type: 'newsletter', allowed_origins: ['https://example.com'] }],
          site: { title: 'The Garden', base_url: 'https://example.com' },
          blog: { listen: '127.0.0.1:0', content_dir: posts },
        },
        temp.dir,
      );
      const backend = openBackend(config, createSilentLogger());
      // Packages loaded on first use (src/kit/lazy-module.ts: sanitize-html for the posts' HTML) stay loaded: a
      // first load and release takes them in before the measure.
      const first = (await loadCampaignSources(config, backend))!;
      first.findPost('roses');
      await first.releasePosts();
      const before = heapInUse();
      const sources = (await loadCampaignSources(config, backend))!;
      try {
        assert.equal(sources.findPost('roses')?.title, 'Roses');
        assert.equal(sources.findPost('day-7')?.title, 'Day 7');
        const loaded = heapInUse() - before;
        await sources.releasePosts();
        const left = heapInUse() - before;
        assert.equal(sources.findPost('roses'), undefined);
        assert.ok(loaded > 2_000_000, `the loaded blog holds ${loaded} bytes`);
        assert.ok(left < loaded / 4, `${left} of the loaded blog's ${loaded} bytes are still held`);
        // Twice is once.
        await sources.releasePosts();
      } finally {
        await sources.releasePosts();
        await backend.close();
      }
    } finally {
      await temp.remove();
    }
  });
});
