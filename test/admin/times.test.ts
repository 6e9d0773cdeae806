// Times on the admin pages (src/admin/views/time.tsx): a <time> with the instant in RFC 3339 and its text in
// `[admin] time_zone`, '27 Nov 2026, 14:05', across daylight-saving changes; and the pages that show times use it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { formatTime, rfc3339Of, Time } from '../../src/admin/views/time.js';
import { AuditPage } from '../../src/admin/audit-pages/audit-views.js';
import { CampaignListPage } from '../../src/admin/campaign-pages/campaign-views.js';
import { SubmissionListPage } from '../../src/admin/inbox-pages/inbox-views.js';
import { PostListPage } from '../../src/admin/post-pages/post-list-page.js';
import type { AdminSession } from '../../src/admin/sessions.js';

const session = (timeZone: string): AdminSession => ({ user: 'jane', role: 'owner', csrfToken: 'token', authAt: 0, timeZone });

describe('<Time>', () => {
  it('shows an instant in the zone, with the UTC instant in datetime', () => {
    const at = Date.UTC(2026, 10, 27, 13, 5, 9);
    assert.equal(render(h(Time, { at: at, zone: 'UTC' })), '<time datetime="2026-11-27T13:05:09Z">27 Nov 2026, 13:05</time>');
    assert.equal(render(h(Time, { at: at, zone: 'Europe/Berlin' })), '<time datetime="2026-11-27T13:05:09Z">27 Nov 2026, 14:05</time>');
    assert.equal(render(h(Time, { at: at, zone: 'America/New_York' })), '<time datetime="2026-11-27T13:05:09Z">27 Nov 2026, 08:05</time>');
    assert.equal(render(h(Time, { at: at, zone: 'Asia/Tokyo', precision: 'second' })), '<time datetime="2026-11-27T13:05:09Z">27 Nov 2026, 22:05:09</time>');
    assert.equal(render(h(Time, { at: at, zone: 'Pacific/Kiritimati', precision: 'day' })), '<time datetime="2026-11-27T13:05:09Z">28 Nov 2026</time>');
  });

  it('reads ISO strings, with an offset or a bare day (midnight UTC)', () => {
    assert.equal(render(h(Time, { at: '2026-11-27T14:05:00+01:00', zone: 'UTC' })), '<time datetime="2026-11-27T13:05:00Z">27 Nov 2026, 13:05</time>');
    assert.equal(render(h(Time, { at: '2026-03-01', zone: 'Europe/Berlin' })), '<time datetime="2026-03-01T00:00:00Z">1 Mar 2026, 01:00</time>');
    assert.equal(render(h(Time, { at: '2026-03-01T10:00:00.250Z', zone: 'UTC' })), '<time datetime="2026-03-01T10:00:00.250Z">1 Mar 2026, 10:00</time>');
  });

  it('follows daylight saving time: the same UTC hour is 01:00 or 02:00 in Berlin on either side of the change', () => {
    // Europe/Berlin: CET (+01:00) until 2026-03-29 01:00 UTC, then CEST (+02:00) until 2026-10-25 01:00 UTC.
    assert.equal(formatTime(Date.UTC(2026, 2, 29, 0, 59), 'Europe/Berlin'), '29 Mar 2026, 01:59');
    assert.equal(formatTime(Date.UTC(2026, 2, 29, 1, 0), 'Europe/Berlin'), '29 Mar 2026, 03:00');
    assert.equal(formatTime(Date.UTC(2026, 9, 25, 0, 30), 'Europe/Berlin'), '25 Oct 2026, 02:30');
    assert.equal(formatTime(Date.UTC(2026, 9, 25, 1, 30), 'Europe/Berlin'), '25 Oct 2026, 02:30', 'the repeated hour');
    // The southern hemisphere changes the other way: Sydney is +11:00 in January, +10:00 in July.
    assert.equal(formatTime(Date.UTC(2026, 0, 15, 12), 'Australia/Sydney'), '15 Jan 2026, 23:00');
    assert.equal(formatTime(Date.UTC(2026, 6, 15, 12), 'Australia/Sydney'), '15 Jul 2026, 22:00');
    // Midnight is 00:00, never 24:00.
    assert.equal(formatTime(Date.UTC(2026, 0, 1, 0, 0), 'UTC'), '1 Jan 2026, 00:00');
  });

  it('shows what is no time as it is, and a missing one as "unknown time"', () => {
    assert.equal(render(h(Time, { at: 'yesterday-ish', zone: 'UTC' })), 'yesterday-ish');
    assert.equal(render(h(Time, { at: undefined, zone: 'UTC' })), 'unknown time');
    assert.equal(render(h(Time, { at: '', zone: 'UTC', fallback: '-' })), '-');
    assert.equal(rfc3339Of(Date.UTC(2026, 0, 1)), '2026-01-01T00:00:00Z');
  });
});

describe('pages show times in the session zone', () => {
  const berlin = session('Europe/Berlin');

  it('the audit log', () => {
    const html = render(h(AuditPage, { session: berlin, events: [{ at: Date.UTC(2026, 10, 23, 12, 0, 5), user: 'jane', event: 'user_invited', subject: 'ada', network: '192.0.2.1' }], page: 1, hasOlder: false }));
    assert.ok(html.includes('<time datetime="2026-11-23T12:00:05Z">23 Nov 2026, 13:00:05</time>'), html);
    assert.ok(!html.includes('UTC'), 'no raw UTC time left');
  });

  it('the inbox', () => {
    const html = render(
      h(SubmissionListPage, { session: berlin, formPath: '/contact', formKey: 'contact', entries: [{ id: 'a1', received_at: '2026-07-01T10:00:00.000Z', fields: { received_at: '2026-07-01T10:00:00.000Z', name: 'Ada' } } as never], query: '', page: 1, hasNext: false }),
    );
    assert.ok(html.includes('<time datetime="2026-07-01T10:00:00Z">1 Jul 2026, 12:00</time>'), html);
    assert.ok(!html.includes('>2026-07-01T10:00:00.000Z<'));
  });

  it('the campaigns', () => {
    const request = { id: 'c1', subject: 'Hello', lang: 'en', form: '/newsletter', created_at: '2026-01-10T23:30:00.000Z' } as never;
    const progress = { started: true, finished: true, sent: 1, failed: 0, skipped: 0, total: 1 } as never;
    const html = render(h(CampaignListPage, { session: session('Asia/Tokyo'), campaigns: [{ request, progress }] }));
    assert.ok(html.includes('<time datetime="2026-01-10T23:30:00Z">11 Jan 2026, 08:30</time>'), html);
  });

  it('the posts list', () => {
    const html = render(h(PostListPage, { session: berlin, versions: [{ file: 'a.md', slug: 'a', language: 'en', title: 'A', date: '2026-06-01T08:00:00Z', state: 'published' }] }));
    assert.ok(html.includes('<time datetime="2026-06-01T08:00:00Z">1 Jun 2026, 10:00</time>'), html);
  });
});
