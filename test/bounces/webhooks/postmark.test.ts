// Postmark's webhook (src/bounces/webhooks/postmark.ts): basic auth with the configured credentials, and the
// record's Type turned into our kinds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPostmarkAuthorized, kindOfPostmarkType, parsePostmark } from '../../../src/bounces/webhooks/postmark.js';
import { POSTMARK_CREDENTIALS, postmarkRequest } from '../../support/bounce-webhooks.js';

const NOW = Date.UTC(2024, 4, 1, 12);
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('isPostmarkAuthorized', () => {
  const { username, password } = POSTMARK_CREDENTIALS;
  const cases: Array<[string, string | undefined, boolean]> = [
    ['the configured username and password', basic(`${username}:${password}`), true],
    ['the scheme in any case', `bAsIc ${Buffer.from(`${username}:${password}`).toString('base64')}`, true],
    ['a wrong password', basic(`${username}:${password}x`), false],
    ['a wrong username', basic(`x${username}:${password}`), false],
    ['the password alone', basic(password), false],
    ['an empty pair', basic(':'), false],
    ['another scheme', `Bearer ${password}`, false],
    ['no header', undefined, false],
  ];
  for (const [what, header, expected] of cases) {
    it(`${expected ? 'takes' : 'refuses'} ${what}`, () => assert.equal(isPostmarkAuthorized(header, POSTMARK_CREDENTIALS), expected));
  }
  it('accepts a password holding a colon', () => {
    const credentials = { username: 'u', password: 'p:q' };
    assert.equal(isPostmarkAuthorized(basic('u:p:q'), credentials), true);
  });
});

describe('kindOfPostmarkType', () => {
  const cases: Array<[string | undefined, string]> = [
    ['HardBounce', 'hard'],
    ['BadEmailAddress', 'hard'],
    ['ManuallyDeactivated', 'hard'],
    ['SoftBounce', 'soft'],
    ['Transient', 'soft'],
    ['DnsError', 'soft'],
    ['SpamComplaint', 'complaint'],
    ['AutoResponder', 'none'],
    ['AddressChange', 'none'],
    ['Unknown', 'none'],
    ['toString', 'none'],
    [undefined, 'none'],
  ];
  for (const [type, kind] of cases) it(`${type} is ${kind}`, () => assert.equal(kindOfPostmarkType(type), kind));
});

describe('parsePostmark', () => {
  it('reads a Bounce record: the address, the status in its details, the From and the time', () => {
    const { body } = postmarkRequest({
      RecordType: 'Bounce',
      Type: 'HardBounce',
      TypeCode: 1,
      Email: 'Gone@Example.org',
      From: 'Site <Forms@example.com>',
      BouncedAt: '2024-05-01T11:00:00Z',
      Description: 'The server was unable to deliver your message',
      Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist.',
    });
    assert.deepEqual(parsePostmark(body, NOW), {
      ok: true,
      reports: [
        {
          source: 'postmark',
          kind: 'hard',
          recipient: 'gone@example.org',
          status: '5.1.1',
          reason: 'HardBounce: smtp;550 5.1.1 The email account that you tried to reach does not exist.',
          sentTo: ['forms@example.com'],
          at: Date.UTC(2024, 4, 1, 11),
        },
      ],
    });
  });

  it('reads a SpamComplaint record as a complaint', () => {
    const { body } = postmarkRequest({ RecordType: 'SpamComplaint', Type: 'SpamComplaint', Email: 'angry@example.org', From: 'forms@example.com', BouncedAt: '2024-05-01T11:00:00Z' });
    const parsed = parsePostmark(body, NOW);
    assert.ok(parsed.ok);
    assert.equal(parsed.reports[0]?.kind, 'complaint');
  });

  it('gives no report for other record types', () => {
    assert.deepEqual(parsePostmark(JSON.stringify({ RecordType: 'Delivery', Recipient: 'a@example.org' }), NOW), { ok: true, reports: [] });
  });

  it('refuses what is not a Postmark record', () => {
    for (const body of ['not json', '[]', '{}', JSON.stringify({ RecordType: 'Bounce', Type: 'HardBounce' })]) {
      assert.equal(parsePostmark(body, NOW).ok, false, body);
    }
  });
});
