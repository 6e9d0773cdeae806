// The pure parts of comments (docs/comments.md): the fields' rules, the status moderation gives, when a thread
// closes, what a comment's Markdown may become, the public thread that leaves the address out, and new ids.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCommentFields } from '../../src/comments/comment-fields.js';
import type { StoredComment } from '../../src/comments/comment-store.js';
import { commentIdOf, createCommentIdMaker, IDS_PER_SECOND } from '../../src/comments/comment-id.js';
import { publicThreadOf } from '../../src/comments/comment-thread.js';
import { isThreadClosed, statusOfNewComment } from '../../src/comments/moderation.js';
import { createCommentRenderer } from '../../src/comments/render-comment.js';

const fieldsOf = (body: Record<string, unknown>) => {
  const checked = checkCommentFields(body);
  return checked.ok ? checked : { ok: false as const, fields: checked.details.map((detail) => detail.field) };
};

describe('comment fields', () => {
  it('takes a name and a text, trimmed, with the optional fields null', () => {
    assert.deepEqual(fieldsOf({ name: ' Ada ', text: ' Hi ' }), { ok: true, fields: { name: 'Ada', email: null, url: null, text: 'Hi', parent: null }, honeypotHit: false });
  });

  it('counts characters, not UTF-16 units: 100 emoji are a name of 100', () => {
    assert.equal(fieldsOf({ name: '😀'.repeat(100), text: 'x' }).ok, true);
    assert.deepEqual(fieldsOf({ name: '😀'.repeat(101), text: 'x' }), { ok: false, fields: ['name'] });
    assert.equal(fieldsOf({ name: 'A', text: '😀'.repeat(10_000) }).ok, true);
    assert.deepEqual(fieldsOf({ name: 'A', text: 'x'.repeat(10_001) }), { ok: false, fields: ['text'] });
  });

  it('refuses each bad field, in order', () => {
    assert.deepEqual(fieldsOf({ name: 3, email: 'a@', url: 'ftp://x.example', text: '   ', parent: 7 }), { ok: false, fields: ['name', 'email', 'url', 'text', 'parent'] });
    assert.deepEqual(fieldsOf({ name: 'A', text: 'x', url: 'javascript:alert(1)' }), { ok: false, fields: ['url'] });
    assert.deepEqual(fieldsOf({ name: 'A', text: 'x', url: 'https://' }), { ok: false, fields: ['url'] });
  });

  it('notices a filled honeypot', () => {
    const checked = checkCommentFields({ name: 'A', text: 'x', website: 'https://spam.example' });
    assert.ok(checked.ok && checked.honeypotHit);
  });
});

describe('moderation', () => {
  it('gives spam whatever the mode, and otherwise what the mode says', () => {
    const table: Array<[Parameters<typeof statusOfNewComment>, string]> = [
      [['none', true, true], 'spam'],
      [['none', false, false], 'published'],
      [['all', false, true], 'waiting'],
      [['first', false, false], 'waiting'],
      [['first', false, true], 'published'],
      [['first', true, true], 'spam'],
    ];
    for (const [args, status] of table) assert.equal(statusOfNewComment(...args), status, args.join(' '));
  });

  it('closes a thread after close_after_days, never without it', () => {
    const day = 86_400_000;
    assert.equal(isThreadClosed(0, undefined, 10_000 * day), false);
    assert.equal(isThreadClosed(0, 30, 30 * day), false);
    assert.equal(isThreadClosed(0, 30, 30 * day + 1), true);
  });
});

describe('comment rendering', () => {
  const render = createCommentRenderer();

  it('writes typed HTML as text and keeps Markdown', () => {
    const html = render('**bold** <img src=x onerror=alert(1)> <a href="https://x.example">x</a>');
    assert.match(html, /<strong>bold<\/strong>/);
    assert.doesNotMatch(html, /<img|<a href="https:\/\/x\.example">x/);
    assert.match(html, /&lt;img/);
  });

  it('marks every link nofollow ugc and drops links of other schemes', () => {
    assert.match(render('[site](https://site.example) and https://bare.example'), /<a href="https:\/\/site\.example" rel="nofollow ugc">site<\/a> and <a href="https:\/\/bare\.example" rel="nofollow ugc">/);
    assert.doesNotMatch(render('[x](javascript:alert(1))'), /href="javascript/);
  });

  it('makes no headings or images', () => {
    const html = render('# Big\n\n![alt](https://img.example/a.png)');
    assert.doesNotMatch(html, /<h1|<img/);
  });
});

describe('the public thread', () => {
  const comment = (id: string, createdAt: string, status: StoredComment['status']): StoredComment => ({
    id, slug: 'hello', lang: 'en', parent: null, author: { name: 'Ada', url: null }, email: 'ada@example.org', text: 'source', html: '<p>x</p>', createdAt, status, kind: 'comment',
  });

  it('lists the published comments oldest first, without address, source or status', () => {
    const thread = publicThreadOf([comment('b', '2024-05-02T00:00:00.000Z', 'published'), comment('w', '2024-05-01T00:00:00.000Z', 'waiting'), comment('a', '2024-05-01T00:00:00.000Z', 'published'), comment('s', '2024-05-01T00:00:00.000Z', 'spam')]);
    assert.deepEqual(thread.comments.map((entry) => entry.id), ['a', 'b']);
    assert.equal(thread.total, 2);
    assert.doesNotMatch(JSON.stringify(thread), /ada@example|source|published/);
  });

  it('gives each time to the second and each HTML without the newline Markdown ends it with, in the store\'s order', () => {
    const later = { ...comment('b', '2024-05-01T10:00:00.900Z', 'published'), html: '<p>b</p>\n' };
    const earlier = { ...comment('a', '2024-05-01T10:00:00.100Z', 'published'), html: '<pre><code>x\n</code></pre>\n' };
    const thread = publicThreadOf([later, earlier, comment('c', '2024-05-01T12:00:00+02:00', 'published')]);
    assert.deepEqual(
      thread.comments.map((entry) => [entry.id, entry.created_at, entry.html]),
      [
        ['a', '2024-05-01T10:00:00.000Z', '<pre><code>x\n</code></pre>'],
        ['b', '2024-05-01T10:00:00.000Z', '<p>b</p>'],
        ['c', '2024-05-01T12:00:00+02:00', '<p>x</p>'],
      ],
    );
  });
});

describe('comment ids', () => {
  it('are the second in base 36 and four random base-36 digits, the smallest and largest draw included', () => {
    const now = Date.UTC(2026, 10, 29, 10, 0, 0, 999);
    const second = Math.floor(now / 1000).toString(36);
    assert.equal(commentIdOf(now, 0), `${second}0000`);
    assert.equal(commentIdOf(now, IDS_PER_SECOND - 1), `${second}zzzz`);
    assert.equal(commentIdOf(now, 1234), `${second}00ya`);
    assert.match(commentIdOf(now, 1234), /^[0-9a-z]{10}$/);
  });

  it('sort as their times do', () => {
    assert.ok(commentIdOf(Date.UTC(2026, 0, 1), IDS_PER_SECOND - 1) < commentIdOf(Date.UTC(2026, 0, 1, 0, 0, 1), 0));
  });

  it('are never given twice by one maker in the same second, even when the random source repeats itself', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const draws = [7, 7, 7, 9, 7, 9, 3];
    const make = createCommentIdMaker(() => now, () => draws.shift()!);
    assert.deepEqual([make(), make(), make()], [commentIdOf(now, 7), commentIdOf(now, 9), commentIdOf(now, 3)]);
  });

  it('may give a draw again in a later second', () => {
    let now = Date.UTC(2026, 0, 1, 12);
    const make = createCommentIdMaker(() => now, () => 5);
    const first = make();
    now += 1000;
    assert.notEqual(make(), first);
  });
});
