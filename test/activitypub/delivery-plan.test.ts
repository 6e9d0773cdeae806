// Which activities a catalog calls for (docs/activitypub.md "Delivery"), and where they go: pure tables.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArticleFields } from '../../src/activitypub/article.js';
import { inboxesOf, planChanges } from '../../src/activitypub/delivery-plan.js';

function article(key: string, change: string): ArticleFields {
  return { key, slug: key.split('@')[0]!, id: `https://blog.example/activitypub/posts/en/${key}`, url: '', name: key, summary: '', content: '', lang: 'en', published: '2024-05-01T00:00:00Z', updated: null, tags: [], images: [], change };
}

describe('planChanges', () => {
  it('creates what is new, updates what changed, deletes what is gone and leaves the rest', () => {
    const delivered = { 'same@en': { id: 'a', change: '1' }, 'edited@en': { id: 'b', change: '1' }, 'gone@en': { id: 'https://blog.example/gone', change: '1' } };
    const { changes, delivered: next } = planChanges(delivered, [article('same@en', '1'), article('edited@en', '2'), article('new@en', '1')]);
    assert.deepEqual(
      changes.map((change) => [change.type, change.type === 'delete' ? change.id : change.article.key]),
      [
        ['update', 'edited@en'],
        ['create', 'new@en'],
        ['delete', 'https://blog.example/gone'],
      ],
    );
    assert.deepEqual(Object.keys(next).sort(), ['edited@en', 'new@en', 'same@en']);
    assert.equal(next['edited@en']!.change, '2');
  });

  it('calls for nothing when nothing changed', () => {
    const current = [article('one@en', 'x')];
    assert.deepEqual(planChanges(planChanges({}, current).delivered, current).changes, []);
  });
});

describe('inboxesOf', () => {
  it('gives each shared inbox once, and the own inbox of a follower without one', () => {
    const followers = [
      { id: 'https://a.example/users/1', inbox: 'https://a.example/users/1/inbox', sharedInbox: 'https://a.example/inbox' },
      { id: 'https://a.example/users/2', inbox: 'https://a.example/users/2/inbox', sharedInbox: 'https://a.example/inbox' },
      { id: 'https://b.example/u', inbox: 'https://b.example/u/inbox', sharedInbox: null },
    ];
    assert.deepEqual(inboxesOf(followers), ['https://a.example/inbox', 'https://b.example/u/inbox']);
  });
});
