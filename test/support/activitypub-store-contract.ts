// What every ActivityPubStore does (src/activitypub/activitypub-store.ts), held to one contract: the files of
// data_dir and PostgreSQL. `open` gives a fresh store and a way to open the same records again (a restart, or a
// second replica).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ActivityPubStore, ActorKeys } from '../../src/activitypub/activitypub-store.js';

const keysNamed = (name: string): ActorKeys => ({ privateKey: { kty: 'RSA', d: name }, publicKey: { kty: 'RSA', n: name } });

export function activityPubStoreContract(open: () => Promise<{ store: ActivityPubStore; reopen(): Promise<ActivityPubStore> }>): void {
  it('makes the key pair once and keeps it', async () => {
    const { store, reopen } = await open();
    let made = 0;
    const create = async () => keysNamed(`pair-${(made += 1)}`);
    const first = await store.keys(create);
    assert.deepEqual(first, keysNamed('pair-1'));
    assert.deepEqual(await (await reopen()).keys(create), first);
    assert.equal(made, 1);
  });

  it('keeps followers in the order they followed, once each, until removed', async () => {
    const { store, reopen } = await open();
    await store.addFollower({ id: 'https://a.example/u/1', inbox: 'https://a.example/u/1/inbox', sharedInbox: 'https://a.example/inbox' });
    await store.addFollower({ id: 'https://b.example/u/2', inbox: 'https://b.example/u/2/inbox', sharedInbox: null });
    await store.addFollower({ id: 'https://a.example/u/1', inbox: 'https://a.example/u/1/inbox', sharedInbox: 'https://a.example/shared' });
    const again = await reopen();
    assert.deepEqual(
      (await again.followers()).map((follower) => [follower.id, follower.sharedInbox]).sort(),
      [
        ['https://a.example/u/1', 'https://a.example/shared'],
        ['https://b.example/u/2', null],
      ],
    );
    assert.equal(await again.removeFollower('https://a.example/u/1'), true);
    assert.equal(await again.removeFollower('https://a.example/u/1'), false);
    assert.deepEqual((await store.followers()).map((follower) => follower.id), ['https://b.example/u/2']);
  });

  it('replaces the delivered record whole', async () => {
    const { store, reopen } = await open();
    assert.deepEqual(await store.readDelivered(), {});
    await store.writeDelivered({ 'a@en': { id: 'https://blog.example/a', change: '1' }, 'b@en': { id: 'https://blog.example/b', change: '1' } });
    await store.writeDelivered({ 'a@en': { id: 'https://blog.example/a', change: '2' } });
    assert.deepEqual(await (await reopen()).readDelivered(), { 'a@en': { id: 'https://blog.example/a', change: '2' } });
  });

  it('takes each inbox of an activity once, forgets it for the next activity of the version, and takes back what is given back', async () => {
    const { store, reopen } = await open();
    const create = 'https://blog.example/a#create';
    assert.deepEqual(await store.takeInboxes('a@en', create, ['https://x.example/inbox', 'https://y.example/inbox']), ['https://x.example/inbox', 'https://y.example/inbox']);
    const again = await reopen();
    assert.deepEqual(await again.takeInboxes('a@en', create, ['https://x.example/inbox', 'https://z.example/inbox']), ['https://z.example/inbox']);
    assert.deepEqual(await again.takeInboxes('b@en', 'https://blog.example/b#create', ['https://x.example/inbox']), ['https://x.example/inbox'], 'another version is apart');
    const deletion = 'https://blog.example/a#delete-1';
    assert.deepEqual(await again.takeInboxes('a@en', deletion, ['https://x.example/inbox']), ['https://x.example/inbox']);
    // Published again: the Create is taken anew.
    assert.deepEqual(await again.takeInboxes('a@en', create, ['https://x.example/inbox']), ['https://x.example/inbox']);
    await again.giveBackInboxes('a@en', create, ['https://x.example/inbox']);
    assert.deepEqual(await (await reopen()).takeInboxes('a@en', create, ['https://x.example/inbox']), ['https://x.example/inbox']);
  });

  it('knows which actor sent each remote object and which comment it became, until it is removed', async () => {
    const { store, reopen } = await open();
    const object = (objectId: string, actorId: string, id: string) => ({ objectId, actorId, comment: { slug: 'hello', lang: 'en', id } });
    await store.addRemoteObject(object('https://a.example/notes/1', 'https://a.example/u/1', 'c1'));
    await store.addRemoteObject(object('https://a.example/likes/1', 'https://a.example/u/1', 'c2'));
    await store.addRemoteObject(object('https://b.example/notes/1', 'https://b.example/u/2', 'c3'));
    await store.addRemoteObject(object('https://a.example/notes/1', 'https://a.example/u/1', 'c4'));
    const again = await reopen();
    assert.deepEqual((await again.objectsOf('https://a.example/u/1')).map((kept) => kept.comment.id).sort(), ['c2', 'c4']);
    assert.deepEqual(await again.remoteObject('https://b.example/notes/1'), object('https://b.example/notes/1', 'https://b.example/u/2', 'c3'));
    await again.removeRemoteObject('https://b.example/notes/1');
    assert.equal(await store.remoteObject('https://b.example/notes/1'), undefined);
    assert.deepEqual(await store.objectsOf('https://c.example/u'), []);
  });
}
