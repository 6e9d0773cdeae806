// Pure rules of leaving the list: folding the subscriber event log, and the unsubscribe token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldSubscriberLog } from '../../src/newsletter/subscriber-events.js';
import { createUnsubscribeToken, readUnsubscribeToken } from '../../src/newsletter/unsubscribe-token.js';

const sub = (email: string, at: string, extra: object = {}) => ({ email, form: '/news', subscribed_at: at, signed_up_at: at, ...extra });
const unsub = (email: string, at: string) => ({ event: 'unsubscribed', email, form: '/news', at });

describe('folding the subscriber log', () => {
  const cases: Array<{ name: string; lines: unknown[]; want: Array<[string, string]> }> = [
    { name: 'old lines without event are subscriptions', lines: [sub('a@x.org', '1'), sub('b@x.org', '2')], want: [['a@x.org', '1'], ['b@x.org', '2']] },
    { name: 'an unsubscription removes, case-insensitively', lines: [sub('A@x.org', '1'), unsub('a@X.org', '2')], want: [] },
    { name: 'resubscribing adds again, last subscription wins', lines: [sub('a@x.org', '1', { event: 'subscribed' }), unsub('a@x.org', '2'), sub('a@x.org', '3', { event: 'subscribed' })], want: [['a@x.org', '3']] },
    { name: 'unsubscribing twice or first is harmless', lines: [unsub('a@x.org', '1'), sub('a@x.org', '2'), unsub('a@x.org', '3'), unsub('a@x.org', '4')], want: [] },
    { name: 'other forms, unknown events and junk are skipped', lines: [sub('a@x.org', '1', { form: '/other' }), { event: 'bounced', email: 'b@x.org' }, null, 'x', sub('c@x.org', '2')], want: [['c@x.org', '2']] },
  ];
  for (const { name, lines, want } of cases) {
    it(name, () => {
      assert.deepEqual([...foldSubscriberLog(lines, '/news').values()].map((s) => [s.email, s.subscribed_at]), want);
    });
  }
});

describe('unsubscribe tokens', () => {
  const secret = Buffer.alloc(32, 7);
  it('round-trips the address, case kept', () => {
    const token = createUnsubscribeToken(secret, '/news', 'Ada@Example.org');
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    assert.equal(readUnsubscribeToken(secret, '/news', token), 'Ada@Example.org');
  });
  it('refuses tampering, another form, another secret and junk', () => {
    const token = createUnsubscribeToken(secret, '/news', 'ada@example.org');
    const otherAddress = `${Buffer.from('eve@example.org').toString('base64url')}.${token.split('.')[1]}`;
    for (const [candidate, formPath, key] of [
      [otherAddress, '/news', secret],
      [`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, '/news', secret],
      [token, '/other', secret],
      [token, '/news', Buffer.alloc(32, 8)],
      ['', '/news', secret],
      ['no-dot', '/news', secret],
    ] as const) {
      assert.equal(readUnsubscribeToken(key, formPath, candidate), undefined, candidate);
    }
  });
});
