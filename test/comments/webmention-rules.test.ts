// The pure parts of webmentions (docs/comments.md "Webmentions"): endpoint discovery, what a source says, which
// addresses are public, and moderation = "first" trusting a host, over a fake store and fetch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommentStore, StoredComment } from '../../src/comments/comment-store.js';
import { discoverEndpoint } from '../../src/comments/webmention/endpoint-discovery.js';
import type { FetchedPage } from '../../src/comments/webmention/fetch-page.js';
import { verifyWebmention } from '../../src/comments/webmention/verify-webmention.js';
import { linksOf, readSourceEntry } from '../../src/comments/webmention/webmention-source.js';
import { isPlainlyPrivateHost, isPublicAddress } from '../../src/kit/public-address.js';

const page = (body: string, links: string[] = [], url = 'https://site.example/a/page'): FetchedPage => ({ status: 200, url, contentType: 'text/html', links, body });
const TARGET = 'https://blog.example.com/blog/hello';

describe('endpoint discovery', () => {
  it('takes the Link header first, then the first <link> or <a> with rel webmention, resolved on the page', () => {
    assert.equal(discoverEndpoint(page('<link rel="webmention" href="/html">', ['</one>; rel="other", <two>; rel="webmention other"'])), 'https://site.example/a/two');
    assert.equal(discoverEndpoint(page('<a rel="webmention" href="../first">x</a><link rel="webmention" href="/second">')), 'https://site.example/first');
    assert.equal(discoverEndpoint(page('<link rel="WebMention" href="">')), 'https://site.example/a/page');
    assert.equal(discoverEndpoint(page('<link rel="webmention" href="https://hooks.example/wm?x=1">')), 'https://hooks.example/wm?x=1');
    assert.equal(discoverEndpoint(page('<link rel="stylesheet" href="/s.css">', ['</x>; rel=webmention'])), 'https://site.example/x');
    assert.equal(discoverEndpoint(page('<p>none</p>')), undefined);
  });
});

describe('what a source says', () => {
  it('finds links of <a>, <img> and <link>, on <base>, without fragments', () => {
    const links = linksOf('<base href="https://other.example/dir/"><a href="x#y">a</a><img src="/pic.png"><a href="mailto:a@b.example">m</a>', 'https://site.example/');
    assert.deepEqual(links, ['https://other.example/dir/x', 'https://other.example/pic.png']);
  });

  it('gives the kind of the first response property that names the target', () => {
    const kindOf = (html: string) => readSourceEntry(html, 'https://site.example/n', TARGET).kind;
    assert.equal(kindOf(`<div class="h-entry"><a class="u-like-of" href="${TARGET}">l</a></div>`), 'like');
    assert.equal(kindOf(`<div class="h-entry"><a class="u-repost-of h-cite" href="${TARGET}">r</a></div>`), 'repost');
    assert.equal(kindOf(`<div class="h-entry"><a class="u-bookmark-of" href="${TARGET}">b</a></div>`), 'bookmark');
    assert.equal(kindOf(`<div class="h-entry"><a class="u-in-reply-to" href="https://else.example/">r</a> <a href="${TARGET}">t</a></div>`), 'mention');
  });

  it('takes the author as text or h-card, and a page without h-entry as a mention by its host', () => {
    const named = readSourceEntry(`<div class="h-entry"><span class="p-author">Ada</span><p class="p-content">Hi</p><a href="${TARGET}">t</a></div>`, 'https://site.example/n', TARGET);
    assert.deepEqual([named.author, named.text, named.html], [{ name: 'Ada', url: 'https://site.example/n' }, 'Hi', null]);
    const bare = readSourceEntry(`<title>A page</title><a href="${TARGET}">t</a>`, 'https://site.example/n', TARGET);
    assert.deepEqual([bare.kind, bare.author, bare.text], ['mention', { name: 'site.example', url: 'https://site.example/n' }, 'A page']);
  });
});

describe('public addresses', () => {
  it('tells public unicast addresses from the others', () => {
    for (const address of ['93.184.215.14', '2606:2800:220:1:248:1893:25c8:1946']) assert.equal(isPublicAddress(address), true, address);
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', 'fe80::1', 'fc00::1', '::ffff:127.0.0.1', '224.0.0.1', 'nonsense']) {
      assert.equal(isPublicAddress(address), false, address);
    }
    assert.equal(isPlainlyPrivateHost('[::1]'), true);
    assert.equal(isPlainlyPrivateHost('app.localhost'), true);
    assert.equal(isPlainlyPrivateHost('example.com'), false);
  });
});

describe('moderation of webmentions', () => {
  it('under "first", holds a host until one of its webmentions was published', async () => {
    const comments: StoredComment[] = [];
    const store = {
      add: async (comment: StoredComment) => void comments.push(comment),
      listVersion: async () => [...comments],
      listAll: async () => [...comments],
      remove: async (_: unknown, id: string) => comments.splice(comments.findIndex((comment) => comment.id === id), 1).length === 1,
    } as unknown as CommentStore;
    let ids = 0;
    const deps = {
      store,
      fetchPage: async (url: string) => page(`<p><a href="${TARGET}">t</a></p>`, [], url),
      contentRules: () => [],
      sanitize: (html: string) => html,
      render: (text: string) => `<p>${text}</p>`,
      createId: () => `id${(ids += 1)}`,
      clock: () => 0,
    };
    const post = { slug: 'hello', lang: 'en', dateMs: 0, author: null };
    await verifyWebmention({ moderation: 'first', spamAction: 'quarantine' }, deps, { source: 'https://site.example/one', target: TARGET, post });
    assert.equal(comments[0]!.status, 'waiting');
    comments[0] = { ...comments[0]!, status: 'published' };
    await verifyWebmention({ moderation: 'first', spamAction: 'quarantine' }, deps, { source: 'https://site.example/two', target: TARGET, post });
    assert.equal(comments[1]!.status, 'published');
    await verifyWebmention({ moderation: 'first', spamAction: 'quarantine' }, deps, { source: 'https://other.example/three', target: TARGET, post });
    assert.equal(comments[2]!.status, 'waiting');
  });
});
