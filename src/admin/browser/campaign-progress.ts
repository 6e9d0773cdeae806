// The campaign page's one script (the CSP runs scripts from /admin only, never inline ones). Progressive
// enhancement of /admin/campaigns/<id> (docs/admin.md "Sending a post"): without it the page shows the counts as of
// loading and a "Refresh" link; with it the page asks /admin/campaigns/<id>/progress every 2 seconds and updates the
// state, the counts and the progress bar in place, until the campaign is finished (or paused itself, when the page
// asks to be reloaded) or the answers fail several times in a row. Only the summary sentence is a live region, and
// it changes on a change of state or at most every 10 seconds, so a screen reader is not told every count of every
// poll.

const POLL_MS = 2000;
const ANNOUNCE_MS = 10000;
const MAX_ERRORS = 5;
const STATES = { waiting: 'Waiting for the service to start it', sending: 'Sending', paused: 'Paused', finished: 'Finished' };

type State = keyof typeof STATES;

/** The progress route's answer (campaign-pages/). */
interface Progress {
  state: State;
  sent: number;
  failed: number;
  skipped: number;
  total: number;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && Math.floor(value) === value;
}

function isProgress(body: unknown): body is Progress {
  if (body === null || typeof body !== 'object') return false;
  const candidate = body as Record<string, unknown>;
  return (
    typeof candidate.state === 'string' &&
    Object.prototype.hasOwnProperty.call(STATES, candidate.state) &&
    isCount(candidate.sent) &&
    isCount(candidate.failed) &&
    isCount(candidate.skipped) &&
    isCount(candidate.total)
  );
}

function summaryOf(progress: Progress, done: number): string {
  const counts = done + ' of ' + progress.total + ' done (' + progress.sent + ' sent, ' + progress.failed + ' failed, ' + progress.skipped + ' skipped).';
  return STATES[progress.state] + ': ' + counts;
}

function followProgress(root: HTMLElement, url: string): void {
  let lastState = root.getAttribute('data-progress-state');
  let lastAnnounced = Date.now();
  let errors = 0;

  function part<T extends HTMLElement = HTMLElement>(name: string): T | null {
    return root.querySelector<T>('[data-progress="' + name + '"]');
  }
  function setText(name: string, text: string): void {
    const element = part(name);
    if (element && element.textContent !== text) element.textContent = text;
  }
  function show(progress: Progress): void {
    const done = progress.sent + progress.failed + progress.skipped;
    setText('state', STATES[progress.state]);
    setText('sent', String(progress.sent));
    setText('failed', String(progress.failed));
    setText('skipped', String(progress.skipped));
    setText('total', String(progress.total));
    setText('done', done + ' of ' + progress.total);
    const bar = part<HTMLProgressElement>('bar');
    if (bar) {
      bar.max = Math.max(progress.total, 1);
      bar.value = done;
      if (bar.textContent !== done + ' of ' + progress.total) bar.textContent = done + ' of ' + progress.total;
    }
    const failedNote = part('failed-note');
    if (failedNote) failedNote.hidden = progress.failed === 0;
    const now = Date.now();
    if (progress.state !== lastState || now - lastAnnounced >= ANNOUNCE_MS) {
      setText('summary', summaryOf(progress, done));
      lastState = progress.state;
      lastAnnounced = now;
    }
  }
  function stop(note?: string): void {
    const element = part('note');
    if (!element) return;
    if (note === undefined) element.hidden = true;
    else setText('note-text', note);
  }
  function poll(): void {
    window
      .fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store', redirect: 'error' })
      .then((response) => {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json() as Promise<unknown>;
      })
      .then((body) => {
        if (!isProgress(body)) throw new Error('not a progress');
        errors = 0;
        show(body);
        if (body.state === 'finished') stop();
        else if (body.state === 'paused') stop('The campaign paused itself: reload the page to see why and to resume it.');
        else window.setTimeout(poll, POLL_MS);
      })
      .catch(() => {
        errors += 1;
        if (errors >= MAX_ERRORS) stop('The counts stopped updating.');
        else window.setTimeout(poll, POLL_MS);
      });
  }
  setText('note-text', 'The counts update by themselves.');
  window.setTimeout(poll, POLL_MS);
}

const progressRoot = document.querySelector<HTMLElement>('[data-progress-url]');
const progressUrl = progressRoot ? progressRoot.getAttribute('data-progress-url') : null;
if (progressRoot && progressUrl !== null && typeof window.fetch === 'function') followProgress(progressRoot, progressUrl);
