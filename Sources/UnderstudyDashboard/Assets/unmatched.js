// Requests that matched no project (`GET /__admin/requests?unmatched=true`), live: what a new
// user gets wrong first (a missing or wrong key, a mistyped prefix, a host nobody emulates) is
// invisible in every project's journal, so it is shown here with its reason and what to change.

import {api, errorBox, query} from './api.js';
import {empty, fmtBytes, fmtTime, h, kvTable, link, platformBadge, prettyBody, replace, statusChip} from './dom.js';

const ROOT = '/__admin/ui';
const PAGE = 100;
const WAIT_MS = 25000;
const MAX_ROWS = 500;
const PLATFORMS = {warplink: 'WarpLink', asleep: 'Asleep', warrantylife: 'WarrantyLife', telematics: 'Telematics'};
// Where each platform's SDK sends the credential that names its project.
const KEY_PLACES = {
  warplink: 'Authorization: Bearer <SDK key>',
  asleep: 'the x-api-key header (or a token the project issued)',
  warrantylife: 'the X-WL-Developer-Key header',
  telematics: 'Authorization: Bearer <a token issued for the project>',
};

export const REASONS = {
  no_credential: 'No credential',
  unknown_credential: 'Unknown credential',
  no_platform: 'No platform for the path',
  host_not_emulated: 'Host not emulated',
  host_not_allowed: 'Host not allowed',
  proxy_unauthorized: 'No proxy password',
};

/** Edit distance, for "did you mean /warplink?" under a mistyped prefix. */
function distance(a, b) {
  let previous = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length];
}

/** The platform prefix a path's first segment most likely meant, or null. */
export function closestPrefix(path) {
  const first = (path ?? '').split('/').filter(Boolean)[0]?.toLowerCase() ?? '';
  if (!first) return null;
  let best = null;
  for (const prefix of Object.keys(PLATFORMS)) {
    const score = distance(first, prefix);
    if (score <= 3 && (!best || score < best.score)) best = {prefix, score};
  }
  return best ? best.prefix : null;
}

const projectsLink = () => link(ROOT, 'project page');

/** What the request presented, as the reason names it: `Authorization [redacted …9f3a]`, a host. */
function detailText(unmatched) {
  const carrier = unmatched.header ?? (unmatched.field ? `body field ${unmatched.field}` : unmatched.credential);
  return [carrier, unmatched.value, unmatched.host].filter(Boolean).join(' ');
}

/** What to change so the next request matches a project: text and links. */
export function hint(entry) {
  const unmatched = entry.unmatched ?? {};
  const name = PLATFORMS[entry.platform] ?? entry.platform;
  switch (unmatched.reason) {
    case 'no_credential':
      // A short link is opened without a key: its domain or slug names the project.
      if (entry.platform === 'warplink' && (entry.path.startsWith('/warplink/r/') || (entry.route ?? '').endsWith('{slug}'))) {
        return ['No project owns this short link\'s domain and slug: create the link in the project (its WarpLink page), or open it under a domain the project has. See the ', projectsLink(), '.'];
      }
      return [`${name} requests name their project with ${KEY_PLACES[entry.platform] ?? 'the project\'s key'}; this one carried none. `,
        'Copy the SDK settings from the ', projectsLink(), '.'];
    case 'unknown_credential': {
      const what = unmatched.header ? `The ${unmatched.header} header` : unmatched.field ? `The body field ${unmatched.field}` : 'The credential';
      return [`${what} (${unmatched.value ?? 'redacted'}) is not any project's key on this server: copy the SDK settings from the `,
        projectsLink(), '. Keys belong to one server\'s projects; a deleted project\'s keys are gone.'];
    }
    case 'no_platform': {
      const guess = closestPrefix(entry.path);
      return [`No platform serves ${entry.path}: SDK base URLs start with ${Object.keys(PLATFORMS).map((p) => `/${p}`).join(', ')}. `,
        guess ? `Did you mean /${guess}? ` : '', 'Copy the base URL from the ', projectsLink(), '.'];
    }
    case 'host_not_emulated':
      return [`No platform emulates ${unmatched.host ?? 'this host'}, so the proxy ${entry.status === 403 ? 'refused it' : 'passed it on to the real host'}. `,
        'If the SDK meant to reach Understudy, it calls a host Understudy does not emulate: point it at the base URL from the ', projectsLink(), '.'];
    case 'host_not_allowed':
      return [`Understudy does not answer to the name ${unmatched.host ?? ''} (421). Use an IP address or localhost, or start it with --allowed-host ${unmatched.host ?? 'NAME'}.`];
    case 'proxy_unauthorized':
      return ['The proxy needs its password: set it in the device\'s proxy settings (any user name, the password given with --proxy-password).'];
    default:
      return [`Matched no project (${unmatched.reason ?? 'no reason recorded'}).`];
  }
}

function detailRow(entry) {
  const pretty = prettyBody(entry.responseBody);
  return h('tr', {class: 'detail-row', 'data-role': 'unmatched-detail', 'data-id': entry.id},
    h('td', {colspan: 7},
      h('h3', null, 'Request headers (secrets redacted)'),
      Object.keys(entry.requestHeaders ?? {}).length ? kvTable(Object.entries(entry.requestHeaders).sort(([a], [b]) => a.localeCompare(b))) : empty('None.'),
      h('h3', null, `Response (${entry.status}, ${fmtBytes(entry.responseBodySize)})`),
      entry.responseBody ? h('pre', {class: 'body'}, pretty.text) : empty('No body.')));
}

export async function renderUnmatched({main, signal}) {
  const state = {entries: [], maxSeen: 0, open: new Set()};
  const live = h('span', {class: 'live', 'data-role': 'live-state'}, 'connecting…');
  const summary = h('div', {class: 'unmatched-summary', 'data-role': 'unmatched-summary'});
  const rows = h('tbody', {'data-role': 'unmatched-rows'});
  const list = h('table', {class: 'data unmatched'}, h('thead', null, h('tr', null,
    ['Time', 'Platform', 'Method', 'Path', 'Status', 'Reason', 'What to change'].map((title) => h('th', null, title)))), rows);
  const box = h('div', {class: 'card flush'}, list);

  replace(main,
    h('div', {class: 'page-head row'}, h('h1', null, 'Unmatched requests'), live),
    h('p', {class: 'muted page-intro'}, 'Requests meant for an emulated service that matched no project: without a key, with a key no project has, ',
      'under a path no platform serves, or for a host nobody emulates. No project\'s journal holds them; control-plane calls are never listed.'),
    summary, box);

  function rowFor(entry, fresh = false) {
    const unmatched = entry.unmatched ?? {};
    const tr = h('tr', {class: ['clickable', fresh ? 'fresh' : ''].join(' ').trim(), 'data-id': entry.id, 'data-reason': unmatched.reason, tabindex: 0},
      h('td', {class: 'mono nowrap', title: entry.time}, fmtTime(entry.time)),
      h('td', null, platformBadge(entry.platform)),
      h('td', {class: 'mono'}, entry.method),
      h('td', {class: 'mono path-cell wrap'}, entry.path, entry.query ? h('span', {class: 'muted'}, `?${entry.query}`) : null),
      h('td', null, statusChip(entry.status)),
      h('td', {'data-role': 'reason'}, h('span', {class: `badge reason-${unmatched.reason ?? 'unknown'}`}, REASONS[unmatched.reason] ?? unmatched.reason ?? '—'),
        detailText(unmatched) ? h('div', {class: 'mono muted wrap'}, detailText(unmatched)) : null),
      h('td', {class: 'hint-cell', 'data-role': 'hint'}, hint(entry)));
    const toggle = (event) => {
      if (event.target.closest('a')) return; // the hint's links navigate
      if (state.open.has(entry.id)) state.open.delete(entry.id); else state.open.add(entry.id);
      const next = tr.nextElementSibling;
      if (next && next.classList.contains('detail-row')) next.remove(); else tr.after(detailRow(entry));
    };
    tr.addEventListener('click', toggle);
    tr.addEventListener('keydown', (event) => { if (event.key === 'Enter') toggle(event); });
    return tr;
  }

  function renderSummary() {
    const counts = new Map();
    for (const entry of state.entries) {
      const reason = entry.unmatched?.reason ?? 'unknown';
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    }
    box.hidden = state.entries.length === 0;
    if (!state.entries.length) {
      replace(summary, empty('No unmatched requests yet. A request without a project\'s key, under a path no platform serves, or for a host nobody emulates appears here as it arrives.'));
      return;
    }
    replace(summary, h('p', {class: 'muted'}, `${state.entries.length} shown (newest first): `,
      [...counts].map(([reason, count], index) => [index ? ' · ' : '', `${count} ${(REASONS[reason] ?? reason).toLowerCase()}`])));
  }

  function prepend(entries) {
    state.entries = entries.concat(state.entries);
    rows.prepend(...entries.map((entry) => rowFor(entry, true)));
    while (state.entries.length > MAX_ROWS) {
      const dropped = state.entries.pop();
      rows.querySelector(`tr[data-id="${dropped.id}"] + tr.detail-row`)?.remove();
      rows.querySelector(`tr[data-id="${dropped.id}"]`)?.remove();
    }
    if (entries.length) state.maxSeen = Math.max(state.maxSeen, entries[0].id);
    renderSummary();
  }

  const first = await api('GET', '/__admin/requests' + query({unmatched: 'true', limit: PAGE}), undefined, {signal});
  prepend(first.requests);
  live.textContent = '● live';
  live.className = 'live on';

  (async () => {
    while (!signal.aborted) {
      try {
        const page = await api('GET', '/__admin/requests' + query({unmatched: 'true', after: state.maxSeen, waitMs: WAIT_MS, limit: PAGE}), undefined, {signal});
        live.textContent = '● live';
        live.className = 'live on';
        prepend(page.requests);
      } catch (error) {
        if (signal.aborted) return;
        live.textContent = `paused: ${error.message}; retrying`;
        live.className = 'live off';
        if (!state.entries.length) replace(summary, errorBox(error));
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
  })();
}
