// Webmentions sent for the blog's own posts (docs/comments.md "Sending"): each published version that is new or
// whose text changed gets one webmention per external link in its text, once per (version, target, change). A
// change is the hash of the version's HTML. The targets are taken in the comment store's ledger (so a restart, a
// reload that changed nothing, or another replica takes none again), then queued in the durable outgoing queue,
// which discovers the endpoint and posts to it (`postWebmention`) with its retries. A version whose targets could
// not be taken or queued (the store away) is looked at again a little later.
import { createHash } from 'node:crypto';
import type { CatalogEntry } from '../../blog/catalog/catalog.js';
import type { PostVersion } from '../../blog/content/post.js';
import { publicPostUrl } from '../../blog/feeds/public-url.js';
import type { BlogSnapshot } from '../../blog/http/snapshot.js';
import type { Timers } from '../../ports.js';
import type { SentLedger } from '../webmention-ledger.js';
import { discoverEndpoint } from './endpoint-discovery.js';
import type { FetchPage } from './fetch-page.js';
import { linksOf } from './webmention-source.js';

/** A webmention to send: the post's public page and a page it links to. */
export interface OutgoingWebmention {
  source: string;
  target: string;
}

export interface SenderDeps {
  ledger: SentLedger;
  /** Queues the webmentions durably; rejects when they could not be queued. */
  enqueue(webmentions: readonly OutgoingWebmention[]): Promise<void>;
  /** Hears a version whose webmentions could not be taken or queued; it is looked at again after `retryMs`. */
  onFailure(error: unknown, source: string): void;
  timers: Timers;
  retryMs: number;
}

export interface WebmentionSender {
  /** Looks at the versions of a new snapshot that were not looked at yet. */
  notice(snapshot: BlogSnapshot): void;
  /** Looks at nothing more; resolves once the looks under way ended. */
  close(): Promise<void>;
}

export function createWebmentionSender(deps: SenderDeps): WebmentionSender {
  // A version unchanged between catalogs is the same object: only new ones are looked at.
  const examined = new WeakSet<PostVersion>();
  const underWay = new Set<Promise<void>>();

  const queueFor = async (snapshot: BlogSnapshot, entry: CatalogEntry) => {
    const source = publicPostUrl(snapshot.catalog, entry);
    const html = snapshot.html(entry);
    const change = createHash('sha256').update(html).digest('base64url');
    const version = `${entry.post.slug}@${entry.post.lang}`;
    const ownHosts = new Set([new URL(source).host, new URL(snapshot.catalog.site.base_url).host]);
    const targets = [...new Set(linksOf(html, source))].filter((target) => !ownHosts.has(new URL(target).host));
    const taken = await deps.ledger.take(version, change, targets);
    if (taken.length === 0) return;
    try {
      await deps.enqueue(taken.map((target) => ({ source, target })));
    } catch (error) {
      await deps.ledger.giveBack(version, change, taken);
      throw error;
    }
  };

  const retries = new Set<unknown>();
  let closed = false;

  /** Takes and queues the version's webmentions; a failure (a store not reachable) is tried again later. */
  const look = (snapshot: BlogSnapshot, entry: CatalogEntry) => {
    const work: Promise<void> = queueFor(snapshot, entry)
      .catch((error: unknown) => {
        deps.onFailure(error, publicPostUrl(snapshot.catalog, entry));
        if (closed) return;
        const handle = deps.timers.setTimeout(() => {
          retries.delete(handle);
          if (!closed) look(snapshot, entry);
        }, deps.retryMs);
        retries.add(handle);
      })
      .finally(() => underWay.delete(work));
    underWay.add(work);
  };

  return {
    notice(snapshot) {
      for (const entry of snapshot.catalog.published) {
        if (examined.has(entry.post)) continue;
        examined.add(entry.post);
        look(snapshot, entry);
      }
    },
    async close() {
      closed = true;
      for (const handle of retries) deps.timers.clearTimeout(handle);
      retries.clear();
      while (underWay.size > 0) await Promise.all([...underWay]);
    },
  };
}

/** A failure the outgoing queue classifies by its HTTP status (src/queue/failure.ts): 4xx given up, 429 and 5xx retried. */
class EndpointAnswer extends Error {
  readonly reason: string;
  constructor(status: number) {
    super(`the page answered ${status}`);
    this.name = 'EndpointAnswer';
    this.reason = `http_${status}`;
  }
}

/**
 * Sends one webmention now (the Webmention Recommendation section 3.1): discovers the target's endpoint and posts
 * `source` and `target` to it. `'skipped'` when the target names no endpoint (nothing to send, nothing to retry).
 */
export async function postWebmention(fetchPage: FetchPage, { source, target }: OutgoingWebmention): Promise<void | 'skipped'> {
  const page = await fetchPage(target);
  if (page.status === 429 || page.status >= 500) throw new EndpointAnswer(page.status);
  const endpoint = discoverEndpoint(page);
  if (endpoint === undefined) return 'skipped';
  const answer = await fetchPage(endpoint, { form: { source, target } });
  if (answer.status < 200 || answer.status > 299) throw new EndpointAnswer(answer.status);
}
