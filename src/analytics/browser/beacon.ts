// /a.js (docs/analytics.md "The script"): one beacon per page view to the origin the script was loaded from, with
// the page's path, the referrer and the window's width. No cookie, no storage, no other request. A page loaded
// ahead of a click (prerendered) is counted when it is shown, if it is.
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  if (script === null || typeof navigator.sendBeacon !== 'function') return;
  const endpoint = new URL('/api/analytics/event', script.src).href;
  const send = () => {
    // A string is sent as text/plain: a simple request, with no preflight to another origin.
    navigator.sendBeacon(endpoint, JSON.stringify({ path: location.pathname, referrer: document.referrer, width: window.innerWidth }));
  };
  if ((document as Document & { prerendering?: boolean }).prerendering) document.addEventListener('prerenderingchange', send, { once: true });
  else send();
})();
