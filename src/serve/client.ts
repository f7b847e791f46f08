/**
 * The live view's browser side, served as /static/live.js (the pages carry no inline script, so
 * the Content-Security-Policy can forbid inline scripts: nothing in a run's logs can run code).
 *
 * A page names its data (`data-api` on #live) and what to watch (`data-watch`). The server pushes a
 * `change` server-sent event whenever a watched directory's fingerprint changes; the page then
 * fetches its fragments and swaps those that differ, keeping ticked checkboxes. EventSource
 * reconnects by itself when the server restarts. A running arm whose log has not moved for ten
 * minutes is flagged (its process may be gone). Controls: the rolling window, the run switcher,
 * the overlay metric and the index's "overlay selected runs" button.
 */
// biome-ignore lint/complexity/noUselessStringRaw: raw so a backslash added to the page script later stays as written
export const CLIENT_JS = String.raw`(() => {
  'use strict';
  const cfg = document.getElementById('live').dataset;
  const status = document.getElementById('live-status');
  let current = cfg.fingerprint || '';
  let busy = false;
  let again = false;
  const say = (text, cls) => {
    if (!status) return;
    status.textContent = text;
    status.className = 'live ' + (cls || '');
  };
  const apiUrl = () => {
    const u = new URL(cfg.api, location.href);
    new URLSearchParams(location.search).forEach((v, k) => { if (k !== 'token') u.searchParams.append(k, v); });
    return u;
  };
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const res = await fetch(apiUrl(), { cache: 'no-store', credentials: 'same-origin' });
      const data = await res.json();
      if (!res.ok) {
        say(data.error || ('error ' + res.status), 'bad');
        return;
      }
      current = data.fingerprint;
      for (const [name, html] of Object.entries(data.slots)) {
        const el = document.querySelector('[data-slot="' + name + '"]');
        if (!el || el.dataset.html === html) continue;
        const ticked = new Set([...el.querySelectorAll('input[type=checkbox]:checked')].map((i) => i.value));
        el.innerHTML = html;
        el.dataset.html = html;
        el.querySelectorAll('input[type=checkbox]').forEach((i) => { if (ticked.has(i.value)) i.checked = true; });
      }
      if (data.title) {
        document.title = data.title;
        const h1 = document.querySelector('h1');
        if (h1) h1.textContent = data.title;
      }
      document.querySelectorAll('.banner').forEach((b) => b.remove());
      say('live · updated ' + new Date().toLocaleTimeString(), 'ok');
      syncOverlayButton();
    } catch (e) {
      say('cannot reach the server: ' + e.message, 'bad');
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }
  // The initial fragments came with the page: remember them so unchanged ones are not redrawn.
  document.querySelectorAll('[data-slot]').forEach((el) => { el.dataset.html = el.innerHTML; });

  const watch = cfg.watch;
  if (watch) {
    const es = new EventSource('/api/events?' + watch);
    es.addEventListener('change', (ev) => { if (ev.data !== current) refresh(); });
    es.onopen = () => say('live', 'ok');
    es.onerror = () => say('reconnecting…', 'bad');
  }

  const setParam = (k, v) => {
    const u = new URL(location.href);
    if (v === null || v === '') u.searchParams.delete(k); else u.searchParams.set(k, v);
    history.replaceState(null, '', u);
  };
  function syncOverlayButton() {
    const b = document.getElementById('overlay-button');
    if (b) b.disabled = document.querySelectorAll('input[name=overlay]:checked').length < 2;
  }
  document.addEventListener('change', (ev) => {
    const t = ev.target;
    if (t.id === 'window') { setParam('window', t.value); refresh(); }
    else if (t.id === 'metric') { setParam('metric', t.value); refresh(); }
    else if (t.id === 'run-switch' && t.value) location.assign(t.value);
    else if (t.name === 'overlay') syncOverlayButton();
  });
  document.addEventListener('click', (ev) => {
    if (ev.target.id !== 'overlay-button') return;
    const ids = [...document.querySelectorAll('input[name=overlay]:checked')].map((i) => i.value);
    if (ids.length >= 2) location.assign('/overlay?' + ids.map((id) => 'run=' + encodeURIComponent(id)).join('&'));
  });
  syncOverlayButton();

  // A running arm whose log has not moved for STALE_MS: say so (the file fingerprint cannot, since
  // nothing changes on disk when an arm process dies without updating arm.json).
  const STALE_MS = 10 * 60 * 1000;
  function markStale() {
    document.querySelectorAll('tr[data-state=running][data-updated]').forEach((tr) => {
      const idle = Date.now() - Number(tr.dataset.updated);
      const note = tr.querySelector('.stale-note');
      if (idle > STALE_MS && !note) {
        tr.classList.add('stale');
        const span = document.createElement('div');
        span.className = 'stale-note';
        span.textContent = 'no step logged for ' + Math.round(idle / 60000) + ' min: is the arm process still alive? (anchor-rl resume continues it)';
        tr.children[tr.dataset.seed !== undefined ? 2 : 1]?.appendChild(span);
      }
    });
  }
  markStale();
  setInterval(markStale, 30000);
  new MutationObserver(markStale).observe(document.body, { childList: true, subtree: true });
})();
`;
