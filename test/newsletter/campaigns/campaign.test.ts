// The campaign journal folded into counts, and where a resumed campaign goes on.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCampaignId, foldJournal, isCampaignId, progressOf, RecipientState, resumePoint, type JournalLine } from '../../../src/newsletter/campaigns/campaign.js';

describe('a campaign journal', () => {
  it('counts each recipient once, by its last line', () => {
    const lines: JournalLine[] = [
      { started_at: '2026-01-01T00:00:00.000Z' },
      { r: 0, s: 'sent' },
      { r: 1, s: 'failed' },
      { r: 2, s: 'skipped' },
      // `postbox queue retry` sent the failed one after all.
      { r: 1, s: 'sent' },
    ];
    assert.deepEqual(progressOf(lines, 5), { total: 5, sent: 2, failed: 0, skipped: 1, started: true, finished: false });
  });

  it('leaves out lines that name no recipient of the list', () => {
    const lines = [{ r: 7, s: 'sent' }, { r: -1, s: 'sent' }, { r: 1.5, s: 'sent' }, { r: 0, s: 'delivered' }] as unknown as JournalLine[];
    assert.deepEqual(progressOf(lines, 3), { total: 3, sent: 0, failed: 0, skipped: 0, started: false, finished: false });
  });

  it('says when the campaign finished', () => {
    assert.equal(progressOf([{ started_at: 'x' }, { finished_at: 'y' }], 0).finished, true);
  });

  it('resumes after the last recipient anything is known of, queued ones included', () => {
    const { states } = foldJournal([{ r: 0, s: 'sent' }, { r: 2, s: 'skipped' }], 10);
    assert.equal(resumePoint(states), 3);
    states[6] = RecipientState.queued;
    assert.equal(resumePoint(states), 7);
    assert.equal(resumePoint(new Uint8Array(4)), 0);
  });
});

describe('campaign ids', () => {
  it('sort by creation time and are safe folder names', () => {
    const first = createCampaignId(Date.parse('2026-11-23T15:04:05.678Z'), 'ab12');
    const second = createCampaignId(Date.parse('2026-11-23T15:04:06.000Z'), '0000');
    assert.equal(first, '20261123T150405Z-ab12');
    assert.ok(first < second);
    assert.equal(isCampaignId(first), true);
    for (const bad of ['../x', '20261123T150405Z-', '20261123T150405Z-ab12/..', '.new-20261123T150405Z-ab12']) assert.equal(isCampaignId(bad), false, bad);
  });
});
