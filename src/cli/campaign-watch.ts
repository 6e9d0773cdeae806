// `postbox newsletter send` after the campaign is created: its progress as the running `serve` sends it, read
// from the campaign's journal once a second. On a terminal a progress bar (cli-progress, on standard error);
// otherwise (a log, a pipe) one line a second while something changes. Ends with the counts of sent, failed and
// skipped.
import cliProgress from 'cli-progress';
import { progressOf, type CampaignProgress, type CampaignRequest } from '../newsletter/campaigns/campaign.js';
import type { CampaignStore } from '../newsletter/campaigns/campaign-store.js';

export interface WatchIo {
  out(text: string): void;
  error(text: string): void;
  /** The terminal the bar is drawn on (standard error when it is one); without it, lines on `out`. */
  terminal?: NodeJS.WritableStream;
  sleep(ms: number): Promise<void>;
  /** Milliseconds since start, for the note shown when no `serve` picks the campaign up. */
  now(): number;
}

/** Time without a `started` line after which the owner is told that `serve` sends campaigns. */
const NOT_STARTED_NOTE_MS = 5_000;

/** Follows `request` until its journal says it finished; the final counts. */
export async function watchCampaign(store: CampaignStore, request: CampaignRequest, io: WatchIo): Promise<CampaignProgress> {
  const startedAt = io.now();
  let noted = false;
  let lastLine = '';
  const bar = io.terminal
    ? new cliProgress.SingleBar(
        { stream: io.terminal, format: ' {bar} {percentage}% | {value}/{total} | sent {sent} · failed {failed} · skipped {skipped}', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(request.recipients, 0, { sent: 0, failed: 0, skipped: 0 });
  try {
    for (;;) {
      const progress = progressOf(await store.readJournal(request.id), request.recipients);
      const done = progress.sent + progress.failed + progress.skipped;
      if (bar) bar.update(done, { sent: progress.sent, failed: progress.failed, skipped: progress.skipped });
      else {
        const line = describeProgress(progress);
        if (line !== lastLine && (progress.started || done > 0)) io.out(`${line}\n`);
        lastLine = line;
      }
      if (progress.finished) return progress;
      if (!progress.started && !noted && io.now() - startedAt >= NOT_STARTED_NOTE_MS) {
        noted = true;
        io.error('postbox: waiting for `postbox serve` to send it: campaigns are sent by the running service (this one is saved and starts when it runs)\n');
      }
      await io.sleep(1_000);
    }
  } finally {
    bar?.stop();
  }
}

/** `sent 120 · failed 0 · skipped 3 · left 877 of 1000`. */
export function describeProgress(progress: CampaignProgress): string {
  const left = progress.total - progress.sent - progress.failed - progress.skipped;
  return `sent ${progress.sent} · failed ${progress.failed} · skipped ${progress.skipped} · left ${left} of ${progress.total}`;
}
