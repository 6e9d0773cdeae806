// What the inbox's activities change (docs/activitypub.md "Followers", "Replies, likes and boosts"), over the stores
// of data_dir: follows come and go, a reply waits under moderation "first" until one of its actor's is approved,
// likes and boosts are kept by kind, and only the actor that sent something may take it back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createActivityPubFiles } from '../../src/adapters/files/activitypub-files.js';
import { createCommentFiles } from '../../src/adapters/files/comment-files.js';
import { createFediverseInbox, type Reaction } from '../../src/activitypub/fediverse-inbox.js';
import { TEST_EPOCH_MS } from '../support/clock.js';
import { withTempDir } from '../support/temp-dir.js';

const POST = 'https://blog.example/activitypub/posts/en/hello';
/** The post, dated a day before the test clock's now. */
const HELLO = { slug: 'hello', lang: 'en', dateMs: TEST_EPOCH_MS - 86_400_000, author: null };

function inboxIn(dir: string, spamWords: string[] = [], closeAfterDays?: number) {
  const store = createActivityPubFiles(dir);
  const comments = createCommentFiles(dir);
  let ids = 0;
  const inbox = createFediverseInbox(
    { moderation: 'first', closeAfterDays, spamAction: 'quarantine' },
    {
      store,
      comments,
      findPost: (url) => (url === POST ? HELLO : undefined),
      postOf: ({ slug }) => (slug === 'hello' ? HELLO : undefined),
      contentRules: ({ message }) => (spamWords.some((word) => message.includes(word)) ? ['blocked_word'] : []),
      sanitize: (html) => html.replace(/<script>.*<\/script>/g, ''),
      textOf: (html) => html.replace(/<[^>]+>/g, ''),
      createId: () => `c${(ids += 1)}`,
      clock: () => TEST_EPOCH_MS,
    },
  );
  return { store, comments, inbox };
}

const alice = { id: 'https://social.example/users/alice', name: 'Alice', url: 'https://social.example/@alice' };
const reply = (objectId: string, actor = alice): Reaction => ({ kind: 'reply', objectId, actor, html: `<p>Nice<script>x</script> ${objectId}</p>` });
/** What a kept comment says of the remote object it came from (the test puts the object's id in its text). */
const objectOf = (comment: { text: string }) => comment.text.split(' ').at(-1);

describe('the fediverse inbox', () => {
  it('keeps a follower until its Undo, and forgets a deleted actor', async () => {
    await withTempDir('ap-inbox', async (dir) => {
      const { store, inbox } = inboxIn(dir);
      await inbox.follow({ id: alice.id, inbox: `${alice.id}/inbox`, sharedInbox: 'https://social.example/inbox' });
      await inbox.follow({ id: 'https://other.example/u', inbox: 'https://other.example/u/inbox', sharedInbox: null });
      await inbox.unfollow(alice.id);
      assert.deepEqual((await store.followers()).map((follower) => follower.id), ['https://other.example/u']);
      await inbox.actorGone('https://other.example/u');
      assert.deepEqual(await store.followers(), []);
    });
  });

  it('holds a first reply, then trusts the actor once one was approved; takes spam aside', async () => {
    await withTempDir('ap-inbox', async (dir) => {
      const { comments, inbox } = inboxIn(dir, ['casino']);
      assert.equal(await inbox.react(reply('https://social.example/notes/1'), POST), 'kept');
      assert.equal(await inbox.react(reply('https://social.example/notes/x'), 'https://blog.example/nowhere'), 'no_post');
      const [first] = await comments.listAll();
      assert.deepEqual([first!.status, first!.kind, first!.html, first!.author, first!.source], ['waiting', 'reply', '<p>Nice https://social.example/notes/1</p>', { name: 'Alice', url: alice.url }, undefined]);
      await comments.setStatus(first!, first!.id, 'published');
      await inbox.react(reply('https://social.example/notes/2'), POST);
      await inbox.react({ ...reply('https://social.example/notes/3'), html: '<p>casino https://social.example/notes/3</p>' }, POST);
      await inbox.react(reply('https://elsewhere.example/notes/1', { ...alice, id: 'https://elsewhere.example/users/bob', name: 'Bob' }), POST);
      // A reply to the approved reply is threaded under it.
      await inbox.react(reply('https://social.example/notes/4'), 'https://social.example/notes/1');
      assert.equal(await inbox.react(reply('https://social.example/notes/5'), 'https://elsewhere.example/notes/1'), 'no_post', 'not under a waiting comment');
      assert.equal((await comments.listAll()).find((comment) => objectOf(comment) === 'https://social.example/notes/4')?.parent, first!.id);
      assert.deepEqual(
        (await comments.listAll()).filter((comment) => objectOf(comment) !== 'https://social.example/notes/4').map((comment) => [objectOf(comment), comment.status]),
        [
          ['https://social.example/notes/1', 'published'],
          ['https://social.example/notes/2', 'published'],
          ['https://social.example/notes/3', 'spam'],
          ['https://elsewhere.example/notes/1', 'waiting'],
        ],
      );
    });
  });

  it('takes nothing for a post whose thread closed', async () => {
    await withTempDir('ap-inbox', async (dir) => {
      const { comments, inbox } = inboxIn(dir, [], 1);
      assert.equal(await inbox.react(reply('https://social.example/notes/1'), POST), 'kept');
      await withTempDir('ap-inbox-closed', async (closedDir) => {
        const closed = inboxIn(closedDir, [], 0.5);
        assert.equal(await closed.inbox.react(reply('https://social.example/notes/1'), POST), 'closed');
        assert.deepEqual(await closed.comments.listAll(), []);
      });
      assert.equal((await comments.listAll()).length, 1);
    });
  });

  it('counts likes and boosts by kind, and lets only their actor take them back', async () => {
    await withTempDir('ap-inbox', async (dir) => {
      const { comments, inbox } = inboxIn(dir);
      await inbox.react({ kind: 'like', objectId: 'https://social.example/likes/1', actor: alice, html: '' }, POST);
      await inbox.react({ kind: 'repost', objectId: 'https://social.example/boosts/1', actor: alice, html: '' }, POST);
      assert.deepEqual((await comments.listAll()).map((comment) => comment.kind), ['like', 'repost']);
      await inbox.retract('https://social.example/likes/1', 'https://elsewhere.example/users/mallory');
      assert.equal((await comments.listAll()).length, 2);
      await inbox.retract('https://social.example/likes/1', alice.id);
      assert.deepEqual((await comments.listAll()).map((comment) => comment.kind), ['repost']);
    });
  });
});
