// ActivityPub fan-out: one post published to 1,000 followers on 50 servers, each with a shared inbox
// (docs/activitypub.md "Delivery"). The servers are 50 listeners on loopback in this process that answer 202 and
// count the POSTs; the followers are written into the blog's data_dir while it runs, and the actor is asked for
// once before (Fedify loaded, the key pair made). Figures: the POSTs (one per shared inbox: 50, each signed) and
// the seconds from the post's file written to the last inbox reached, which include noticing the file
// (docs/performance.md "Figures").
import { mkdirSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { BenchContext } from './lib/context.js';
import { writeBlogConfig } from './lib/config-files.js';
import { delay, startPostbox, type RunningPostbox } from './lib/processes.js';

const SECTION = 'activitypub fan-out';
const FOLLOWERS = 1000;
const SERVERS = 50;
/** The contract's bound for a change to reach the followers. */
const TARGET_SECONDS = 5;

interface Inbox {
  server: Server;
  origin: string;
  posts: number;
  signed: number;
}

/** A follower's server: POSTs to its shared inbox counted, and answered 202 as Mastodon does. */
async function startInbox(onPost: () => void): Promise<Inbox> {
  const inbox = { posts: 0, signed: 0 } as Inbox;
  inbox.server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/inbox') {
        inbox.posts += 1;
        if (request.headers.signature !== undefined || request.headers['signature-input'] !== undefined) inbox.signed += 1;
        onPost();
      }
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => inbox.server.listen(0, '127.0.0.1', resolve));
  inbox.origin = `http://127.0.0.1:${(inbox.server.address() as { port: number }).port}`;
  return inbox;
}

export async function benchActivityPubFanout(context: BenchContext): Promise<void> {
  const { report } = context;
  report.section(`ActivityPub: one post to ${FOLLOWERS.toLocaleString('en')} followers on ${SERVERS} shared inboxes`);
  const dir = path.join(context.tmpRoot, 'activitypub-fanout');
  const contentDir = path.join(dir, 'posts');
  mkdirSync(contentDir, { recursive: true });
  writeFileSync(path.join(contentDir, 'first.md'), '---\ntitle: First\ndate: 2024-04-01\n---\nThe post before anyone followed.\n');
  const configFile = writeBlogConfig(dir, contentDir);
  appendFileSync(configFile, '\n[blog.activitypub]\nenabled = true\nallow_private_address = true\n');
  let lastPostAt = 0;
  let firstPostAt = 0;
  const inboxes: Inbox[] = [];
  let postbox: RunningPostbox | undefined;
  try {
    for (let server = 0; server < SERVERS; server += 1) {
      inboxes.push(
        await startInbox(() => {
          lastPostAt = performance.now();
          firstPostAt ||= lastPostAt;
        }),
      );
    }
    postbox = await startPostbox({ configFile, logFile: path.join(dir, 'postbox.log'), services: ['blog'], placement: context.cores.server, cpuProfileDir: context.cpuProfileDir });
    // The first look at the posts records them as delivered (nobody follows yet); then the followers arrive.
    const data = path.join(dir, 'data', 'activitypub');
    for (let waited = 0; !existsSync(path.join(data, 'delivered.json')); waited += 1) {
      if (waited > 600) throw new Error('the blog never recorded its posts as delivered');
      await delay(50);
    }
    const followers = Array.from({ length: FOLLOWERS }, (_, index) => {
      const { origin } = inboxes[index % SERVERS]!;
      return { id: `${origin}/users/reader${index}`, inbox: `${origin}/users/reader${index}/inbox`, sharedInbox: `${origin}/inbox` };
    });
    writeFileSync(path.join(data, 'followers.json'), JSON.stringify(followers));
    // Fedify loads and the key pair is made at the first request: done before, as on a blog that has run a while.
    const actor = await fetch(`${postbox.addresses.blog}/activitypub/users/blog`, { headers: { accept: 'application/activity+json' } });
    if (actor.status !== 200) throw new Error(`the actor answered ${actor.status}`);

    const writtenAt = performance.now();
    writeFileSync(path.join(contentDir, 'news.md'), '---\ntitle: News for everyone\ndate: 2024-06-01\ntags: [news]\n---\nA post for *every* follower.\n');
    const reached = () => inboxes.filter((inbox) => inbox.posts > 0).length;
    for (let waited = 0; reached() < SERVERS; waited += 1) {
      if (waited > 1200) throw new Error(`only ${reached()} of ${SERVERS} inboxes were reached in a minute`);
      await delay(50);
    }
    // Anything more than one POST per inbox would come right after.
    await delay(1000);
    const posts = inboxes.reduce((sum, inbox) => sum + inbox.posts, 0);
    const signed = inboxes.reduce((sum, inbox) => sum + inbox.signed, 0);
    const seconds = (lastPostAt - writtenAt) / 1000;
    report.add({
      section: SECTION,
      name: 'POSTs for one post',
      value: `${posts} (${signed} signed)`,
      target: `${SERVERS}, one per shared inbox`,
      verdict: posts === SERVERS && signed === SERVERS ? 'PASS' : 'FAIL',
      detail: `${FOLLOWERS} followers, ${FOLLOWERS / SERVERS} on each of ${SERVERS} servers`,
    });
    report.add({
      section: SECTION,
      name: 'file written to the last inbox reached',
      value: `${seconds.toFixed(2)} s`,
      target: `<= ${TARGET_SECONDS} s`,
      verdict: seconds <= TARGET_SECONDS ? 'PASS' : 'FAIL',
      detail: `first POST after ${((firstPostAt - writtenAt) / 1000).toFixed(2)} s (noticing the file, rendering, queueing), the ${SERVERS} POSTs over ${((lastPostAt - firstPostAt) / 1000).toFixed(2)} s`,
    });
  } finally {
    await postbox?.stop();
    for (const inbox of inboxes) await new Promise((resolve) => inbox.server.close(resolve));
  }
}
