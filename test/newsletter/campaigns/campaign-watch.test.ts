// `postbox newsletter send` following a campaign: a progress bar on a terminal, a line a second otherwise, a note
// when no `serve` picks the campaign up, and the final counts once the journal says it finished.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { CampaignRequest, JournalLine } from '../../../src/newsletter/campaigns/campaign.js';
import type { CampaignStore } from '../../../src/newsletter/campaigns/campaign-store.js';
import { watchCampaign, type WatchIo } from '../../../src/cli/campaign-watch.js';

const REQUEST: CampaignRequest = {
  id: '20261123T120000Z-abcd',
  form: '/newsletter',
  slug: 'spring',
  lang: 'en',
  subject: 'Spring',
  post_url: 'https://example.com/blog/spring',
  created_at: '2026-11-23T12:00:00.000Z',
  recipients: 4,
  resend: false,
};

/** A store whose journal grows by one step of `steps` each time it is read. */
function journalInSteps(steps: JournalLine[][]): CampaignStore {
  const lines: JournalLine[] = [];
  let read = 0;
  return {
    readJournal: async () => {
      lines.push(...(steps[read] ?? []));
      read += 1;
      return [...lines];
    },
  } as unknown as CampaignStore;
}

function recordingIo(terminal?: NodeJS.WritableStream): WatchIo & { outText: string; errorText: string; elapsed: number } {
  const io = {
    outText: '',
    errorText: '',
    elapsed: 0,
    terminal,
    out: (text: string) => (io.outText += text),
    error: (text: string) => (io.errorText += text),
    sleep: async (ms: number) => {
      io.elapsed += ms;
    },
    now: () => io.elapsed,
  };
  return io;
}

const STEPS: JournalLine[][] = [
  [],
  [],
  [],
  [],
  [],
  [],
  [{ started_at: 'a' }, { r: 0, s: 'sent' }],
  [{ r: 1, s: 'skipped' }, { r: 2, s: 'sent' }],
  [],
  [{ r: 3, s: 'failed' }, { finished_at: 'b' }],
];

describe('following a campaign', () => {
  it('without a terminal writes a line when the counts change, and says once that serve sends campaigns', async () => {
    const io = recordingIo();
    const final = await watchCampaign(journalInSteps(STEPS), REQUEST, io);
    assert.deepEqual(final, { total: 4, sent: 2, failed: 1, skipped: 1, started: true, finished: true });
    assert.equal(
      io.outText,
      ['sent 1 · failed 0 · skipped 0 · left 3 of 4', 'sent 2 · failed 0 · skipped 1 · left 1 of 4', 'sent 2 · failed 1 · skipped 1 · left 0 of 4', ''].join('\n'),
    );
    assert.equal(io.errorText.match(/waiting for `postbox serve`/g)?.length, 1);
  });

  it('on a terminal draws a progress bar there and writes no lines', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
    let drawn = '';
    terminal.on('data', (chunk: Buffer) => (drawn += chunk.toString('utf8')));
    const io = recordingIo(terminal);
    await watchCampaign(journalInSteps(STEPS), REQUEST, io);
    assert.equal(io.outText, '');
    assert.match(drawn, /100% \| 4\/4 \| sent 2 · failed 1 · skipped 1/);
    assert.match(drawn, /░/, 'the bar itself');
  });
});
