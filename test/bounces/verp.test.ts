// The signed VERP tag (src/bounces/verp.ts, docs/bounces.md "Suppression"): a tag made here reads back as its id
// whatever the case a mail system gave it, a changed or unsigned tag reads as forged, the local part stays within
// the 64 characters RFC 5321 allows, and the id carries the day it was made on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bounceKeyOf, createVerp, dayOfSentId, isSentId, newSentId } from '../../src/bounces/verp.js';
import { MAX_BOUNCE_LOCAL_PART } from '../../src/config/bounces.js';
import { createCountingRandomBytes } from '../support/random-bytes.js';

const KEY = bounceKeyOf(Buffer.alloc(32, 1));
const NOW = Date.UTC(2026, 10, 27, 15, 0, 0);

describe('VERP tags', () => {
  it('reads back the id of a tag it made, in any case, wherever the address stands in the text', () => {
    const verp = createVerp(KEY);
    const id = newSentId(NOW, createCountingRandomBytes());
    const sender = verp.envelopeSender('bounces@example.com', id);
    assert.match(sender, /^bounces\+[a-z2-7]{32}@example\.com$/);
    assert.deepEqual(verp.read([sender]), { id });
    assert.deepEqual(verp.read([sender.toUpperCase()]), { id });
    assert.deepEqual(verp.read(['owner@example.com', `Mail Delivery <${sender}>`]), { id });
    assert.equal(verp.read(['owner@example.com', 'bounces@example.com']), undefined, 'no tag at all');
  });

  it('reads a tag with one character changed, or signed with another key, as forged', () => {
    const verp = createVerp(KEY);
    const random = createCountingRandomBytes();
    const id = newSentId(NOW, random);
    const sender = verp.envelopeSender('bounces@example.com', id);
    const at = sender.indexOf('@') - 1;
    const changed = `${sender.slice(0, at)}${sender[at] === 'a' ? 'b' : 'a'}${sender.slice(at + 1)}`;
    assert.equal(verp.read([changed]), 'forged');
    assert.equal(createVerp(bounceKeyOf(Buffer.alloc(32, 2))).read([sender]), 'forged');
    // The id of another message under the signature of this one.
    const other = newSentId(NOW, random);
    assert.notEqual(other, id);
    const swapped = sender.replace(id, other);
    assert.equal(verp.read([swapped]), 'forged');
    // A forged tag beside a real one: the real one counts.
    assert.deepEqual(verp.read([changed, sender]), { id });
  });

  it('keeps the local part of the longest allowed address within 64 characters', () => {
    const verp = createVerp(KEY);
    const local = 'b'.repeat(MAX_BOUNCE_LOCAL_PART);
    const sender = verp.envelopeSender(`${local}@example.com`, newSentId(NOW, createCountingRandomBytes()));
    assert.equal(sender.slice(0, sender.indexOf('@')).length, 64);
  });

  it('gives ids that differ, carry their UTC day and have one shape', () => {
    const random = createCountingRandomBytes();
    const ids = new Set(Array.from({ length: 200 }, () => newSentId(NOW, random)));
    assert.equal(ids.size, 200);
    for (const id of ids) {
      assert.ok(isSentId(id), id);
      assert.equal(dayOfSentId(id), Math.floor(NOW / 86_400_000));
    }
    assert.equal(isSentId('not-an-id'), false);
  });
});
