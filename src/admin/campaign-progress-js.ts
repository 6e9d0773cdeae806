// The campaign page's one script, served at /admin/assets/campaign-progress.js (the CSP runs scripts from /admin
// only, never inline ones). Progressive enhancement of /admin/campaigns/<id> (docs/admin.md "Sending a post"):
// without it the page shows the counts as of loading and a "Refresh" link; with it the page asks
// /admin/campaigns/<id>/progress every 2 seconds and updates the state, the counts and the progress bar in place,
// until the campaign is finished (or paused itself, when the page asks to be reloaded) or the answers fail several
// times in a row. Only the summary sentence is a live
// region, and it changes on a change of state or at most every 10 seconds, so a screen reader is not told every
// count of every poll. Plain ES2017, no modules: it runs as it is in any browser the admin supports.
export const CAMPAIGN_PROGRESS_JS = `(function () {
  'use strict';
  var POLL_MS = 2000;
  var ANNOUNCE_MS = 10000;
  var MAX_ERRORS = 5;
  var STATES = { waiting: 'Waiting for the service to start it', sending: 'Sending', paused: 'Paused', finished: 'Finished' };
  var root = document.querySelector('[data-progress-url]');
  if (!root || typeof window.fetch !== 'function') return;
  var url = root.getAttribute('data-progress-url');
  var lastState = root.getAttribute('data-progress-state');
  var lastAnnounced = Date.now();
  var errors = 0;

  function part(name) {
    return root.querySelector('[data-progress="' + name + '"]');
  }
  function setText(name, text) {
    var element = part(name);
    if (element && element.textContent !== text) element.textContent = text;
  }
  function isCount(value) {
    return typeof value === 'number' && value >= 0 && Math.floor(value) === value;
  }
  function isProgress(body) {
    return body !== null && typeof body === 'object' && Object.prototype.hasOwnProperty.call(STATES, body.state) &&
      isCount(body.sent) && isCount(body.failed) && isCount(body.skipped) && isCount(body.total);
  }
  function summaryOf(progress, done) {
    var counts = done + ' of ' + progress.total + ' done (' + progress.sent + ' sent, ' + progress.failed + ' failed, ' + progress.skipped + ' skipped).';
    return STATES[progress.state] + ': ' + counts;
  }
  function show(progress) {
    var done = progress.sent + progress.failed + progress.skipped;
    setText('state', STATES[progress.state]);
    setText('sent', String(progress.sent));
    setText('failed', String(progress.failed));
    setText('skipped', String(progress.skipped));
    setText('total', String(progress.total));
    setText('done', done + ' of ' + progress.total);
    var bar = part('bar');
    if (bar) {
      bar.max = Math.max(progress.total, 1);
      bar.value = done;
      if (bar.textContent !== done + ' of ' + progress.total) bar.textContent = done + ' of ' + progress.total;
    }
    var failedNote = part('failed-note');
    if (failedNote) failedNote.hidden = progress.failed === 0;
    var now = Date.now();
    if (progress.state !== lastState || now - lastAnnounced >= ANNOUNCE_MS) {
      setText('summary', summaryOf(progress, done));
      lastState = progress.state;
      lastAnnounced = now;
    }
  }
  function stop(note) {
    var element = part('note');
    if (!element) return;
    if (note === undefined) element.hidden = true;
    else setText('note-text', note);
  }
  function poll() {
    window.fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store', redirect: 'error' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (body) {
        if (!isProgress(body)) throw new Error('not a progress');
        errors = 0;
        show(body);
        if (body.state === 'finished') stop();
        else if (body.state === 'paused') stop('The campaign paused itself: reload the page to see why and to resume it.');
        else window.setTimeout(poll, POLL_MS);
      })
      .catch(function () {
        errors += 1;
        if (errors >= MAX_ERRORS) stop('The counts stopped updating.');
        else window.setTimeout(poll, POLL_MS);
      });
  }
  setText('note-text', 'The counts update by themselves.');
  window.setTimeout(poll, POLL_MS);
})();
`;
