// Webmentions sent for the blog's own posts (docs/comments.md "Sending"): each published version that is new or
// whose text changed gets one webmention per external link in its text, once per (version, target, change). A
// change is the hash of the version's HTML. The targets are taken in the comment store's ledger (so a restart, a
// reload that changed nothing, or another replica takes none again), then queued in the durable outgoing queue,
// which discovers the endpoint and posts to it (`postWebmention`) with its retries. A version that leaves the
// catalog while the process runs sends its targets one more webmention (its page is gone now). A version whose
// targets could not be taken or queued (the store away) is looked at again a little later.
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

/** The change of a version that left the catalog. */
const GONE = 'gone';

/** A version's key in the ledger: `<slug>@<lang>`. */
const versionOf = (entry: CatalogEntry) => `${entry.post.slug}@${entry.post.lang}`;

export function createWebmentionSender(deps: SenderDeps): WebmentionSender {
  // A version unchanged between catalogs is the same object: only new ones are looked at.
  const examined = new WeakSet<PostVersion>();
  const underWay = new Set<Promise<void>>();

  // What each published version linked to when it was looked at: a version that leaves the catalog (deleted,
  // unpublished) sends its targets a webmention once more, so that they find its page gone (410) and take theirs back.
  const linked = new Map<string, OutgoingWebmention[]>();

  /** Takes the targets of `version` at `change` in the ledger and queues those taken. */
  const queueTaken = async (version: string, change: string, webmentions: readonly OutgoingWebmention[]) => {
    const taken = new Set(await deps.ledger.take(version, change, webmentions.map((webmention) => webmention.target)));
    if (taken.size === 0) return;
    try {
      await deps.enqueue(webmentions.filter((webmention) => taken.has(webmention.target)));
    } catch (error) {
      await deps.ledger.giveBack(version, change, [...taken]);
      throw error;
    }
  };

  const queueFor = async (snapshot: BlogSnapshot, entry: CatalogEntry) => {
    const source = publicPostUrl(snapshot.catalog, entry);
    const html = snapshot.html(entry);
    const change = createHash('sha256').update(html).digest('base64url');
    const ownHosts = new Set([new URL(source).host, new URL(snapshot.catalog.site.base_url).host]);
    const targets = [...new Set(linksOf(html, source))].filter((target) => !ownHosts.has(new URL(target).host));
    const webmentions = targets.map((target) => ({ source, target }));
    linked.set(versionOf(entry), webmentions);
    await queueTaken(versionOf(entry), change, webmentions);
  };

  const retries = new Set<unknown>();
  let closed = false;

  /** Runs `work` (taking and queueing); a failure (a store not reachable) runs it again later. */
  const look = (source: string, work: () => Promise<void>) => {
    const running: Promise<void> = work()
      .catch((error: unknown) => {
        deps.onFailure(error, source);
        if (closed) return;
        const handle = deps.timers.setTimeout(() => {
          retries.delete(handle);
          if (!closed) look(source, work);
        }, deps.retryMs);
        retries.add(handle);
      })
      .finally(() => underWay.delete(running));
    underWay.add(running);
  };

  return {
    notice(snapshot) {
      const published = new Set(snapshot.catalog.published.map(versionOf));
      for (const [version, webmentions] of linked) {
        if (published.has(version)) continue;
        linked.delete(version);
        if (webmentions.length > 0) look(webmentions[0]!.source, () => queueTaken(version, GONE, webmentions));
      }
      for (const entry of snapshot.catalog.published) {
        if (examined.has(entry.post)) continue;
        examined.add(entry.post);
        look(publicPostUrl(snapshot.catalog, entry), () => queueFor(snapshot, entry));
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
