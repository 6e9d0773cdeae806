// Webmentions sent for the blog's own posts (docs/comments.md "Sending"): each published version that is new or
// whose text changed gets one webmention per external link in its text, once per (version, target, change). A
// change is the hash of the version's HTML; the ledger keeps, per version, the change last looked at and the
// targets done for it, so a restart or a reload that changed nothing sends nothing again. Work runs on the task
// queue; a target that could not be reached is logged and tried again at the version's next change or restart.
import { createHash } from 'node:crypto';
import type { CatalogEntry } from '../../blog/catalog/catalog.js';
import type { PostVersion } from '../../blog/content/post.js';
import { publicPostUrl } from '../../blog/feeds/public-url.js';
import type { BlogSnapshot } from '../../blog/http/snapshot.js';
import { discoverEndpoint } from './endpoint-discovery.js';
import type { FetchPage } from './fetch-page.js';
import type { TaskQueue } from './webmention-queue.js';
import { linksOf } from './webmention-source.js';

/** Per post version (`<slug>@<lang>`): the change last looked at and the targets done for it. */
export type SentRecord = Record<string, { change: string; sent: string[] }>;

/** Where the record is kept between runs (src/adapters/files/webmention-ledger.ts). */
export interface SentLedger {
  read(): Promise<SentRecord>;
  write(record: SentRecord): Promise<void>;
}

export interface SenderDeps {
  fetchPage: FetchPage;
  ledger: SentLedger;
  queue: TaskQueue;
  /** Hears a target that could not be sent to (it is tried again later). */
  onFailure(error: unknown, source: string, target: string): void;
  /** Hears each webmention sent, for the log. */
  onSent(source: string, target: string): void;
}

export interface WebmentionSender {
  /** Looks at the versions of a new snapshot that were not looked at yet. */
  notice(snapshot: BlogSnapshot): void;
}

export function createWebmentionSender(deps: SenderDeps): WebmentionSender {
  // A version unchanged between catalogs is the same object: only new ones are looked at.
  const examined = new WeakSet<PostVersion>();
  let record: Promise<SentRecord> | undefined;
  const recordOf = () => (record ??= deps.ledger.read());

  /** Sends one webmention; false when the target names no endpoint (nothing to send, nothing to retry). */
  const sendOne = async (source: string, target: string): Promise<boolean> => {
    const endpoint = discoverEndpoint(await deps.fetchPage(target));
    if (endpoint === undefined) return false;
    const answer = await deps.fetchPage(endpoint, { form: { source, target } });
    if (answer.status < 200 || answer.status > 299) throw new Error(`the endpoint answered ${answer.status}`);
    return true;
  };

  const sendFor = async (snapshot: BlogSnapshot, entry: CatalogEntry) => {
    const source = publicPostUrl(snapshot.catalog, entry);
    const html = snapshot.html(entry);
    const change = createHash('sha256').update(html).digest('base64url');
    const key = `${entry.post.slug}@${entry.post.lang}`;
    const book = await recordOf();
    const earlier = book[key];
    const sent = earlier?.change === change ? [...earlier.sent] : [];
    const ownHosts = new Set([new URL(source).host, new URL(snapshot.catalog.site.base_url).host]);
    const targets = [...new Set(linksOf(html, source))].filter((target) => !ownHosts.has(new URL(target).host) && !sent.includes(target));
    if (earlier?.change === change && targets.length === 0) return;
    for (const target of targets) {
      try {
        if (await sendOne(source, target)) deps.onSent(source, target);
        sent.push(target);
      } catch (error) {
        deps.onFailure(error, source, target);
      }
    }
    book[key] = { change, sent };
    await deps.ledger.write(book);
  };

  return {
    notice(snapshot) {
      for (const entry of snapshot.catalog.published) {
        if (examined.has(entry.post)) continue;
        examined.add(entry.post);
        deps.queue.push(() => sendFor(snapshot, entry));
      }
    },
  };
}
