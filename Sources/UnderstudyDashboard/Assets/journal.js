// The live journal: a long poll on the journal listing (`after` + `waitMs`) adds new requests
// as they are answered; `before` pages back; a click opens the exchange in full.

import {api, apiText, errorBox, projectPath, query} from './api.js';
import {bodyBytes, multipartBoundary, multipartView, parseMultipart} from './bodies.js';
import {curlCommand} from './curl.js';
import {findingCallout, findingMarks} from './checks.js';
import {confirmButton, copyButton, empty, fmtBytes, fmtDateTime, fmtMs, fmtTime, h, kvTable, platformBadge, prettyBody,
  replace, statusChip, toast} from './dom.js';

const PAGE = 100;
const LIVE_PAGE = 200;
const WAIT_MS = 25000;
const MAX_ROWS = 1000;

/** A path filter as typed: a glob when it has `*`, else "contains" (`**text**`). */
export function pathGlob(text) {
  const trimmed = (text ?? '').trim();
  if (!trimmed) return '';
  return trimmed.includes('*') ? trimmed : `**${trimmed}**`;
}

function select(name, label, options, value) {
  return h('label', {class: 'field compact'}, h('span', {class: 'field-label'}, label),
    h('select', {name, 'data-filter': name}, options.map(([optionValue, text]) => h('option', {value: optionValue, selected: optionValue === value}, text))));
}

function utf8Length(text) { return new TextEncoder().encode(text).length; }

function bodyBlock(title, body, size, role, contentType) {
  const pretty = prettyBody(body);
  const shown = pretty.kind === 'base64' ? Math.floor(pretty.text.length * 3 / 4) : body ? utf8Length(body) : 0;
  const notes = [`${fmtBytes(size)}`];
  // An upload is read as its parts; the raw body (base64 when a part is binary) stays one click away.
  const boundary = body ? multipartBoundary(contentType) : null;
  const parts = boundary ? parseMultipart(bodyBytes(body), boundary) : null;
  if (parts) notes.push(`multipart, ${parts.length} ${parts.length === 1 ? 'part' : 'parts'}`);
  else if (pretty.kind === 'json') notes.push('JSON, pretty-printed');
  else if (pretty.kind === 'base64') notes.push('binary, shown as base64');
  if (size > shown && body) notes.push(`only the first ${fmtBytes(shown)} were kept`);
  const raw = body ? h('pre', {class: 'body', 'data-role': role}, pretty.text) : empty('No body.');
  return h('div', {class: 'body-block'},
    h('div', {class: 'block-head'}, h('h3', null, title), h('span', {class: 'muted'}, notes.join(' · ')),
      h('span', {class: 'spacer'}), body ? copyButton(pretty.text) : null),
    parts ? [multipartView(parts, `${role}-parts`),
      h('details', {class: 'raw-body'}, h('summary', null, pretty.kind === 'base64' ? 'Raw body (base64)' : 'Raw body'), raw)] : raw);
}

function headerTable(headers, role) {
  const pairs = Object.entries(headers ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return pairs.length ? h('div', {'data-role': role}, kvTable(pairs)) : empty('None.');
}

function curlBlock(entry, project) {
  const command = curlCommand(entry, project);
  return h('details', {class: 'curl', 'data-role': 'curl'},
    h('summary', null, 'cURL command'), h('pre', {class: 'body', 'data-role': 'curl-command'}, command));
}

function detail(entry, onClose, project, findings = null) {
  return h('article', {class: 'card detail', 'data-role': 'entry-detail', 'data-id': entry.id},
    h('div', {class: 'card-head'},
      h('h2', {class: 'mono detail-title'}, h('span', {class: 'method'}, entry.method), h('span', {class: 'path', title: entry.path}, entry.path)),
      h('span', {class: 'spacer'}),
      h('span', {'data-role': 'copy-curl'}, copyButton(curlCommand(entry, project), 'Copy as cURL')),
      h('button', {type: 'button', class: 'link-button', onclick: onClose}, 'Close')),
    h('div', {class: 'detail-status'}, statusChip(entry.status), ' ', platformBadge(entry.platform), ' ',
      h('span', {class: 'muted'}, `${fmtMs(entry.durationMs)} · #${entry.id} · ${fmtDateTime(entry.time)}`)),
    entry.fault ? h('div', {class: 'fault-callout', 'data-role': 'entry-fault'}, h('strong', null, 'Fault applied: '), entry.fault) : null,
    findings,
    kvTable([
      ['Route', entry.route ?? '— (no route matched)'], ['Query', entry.query || '—'], ['Project', entry.projectID ?? '—'],
      ['Received', entry.time], ['Duration', fmtMs(entry.durationMs)], ['Status', entry.status === 0 ? '0 (no response sent)' : String(entry.status)],
    ]),
    curlBlock(entry, project),
    h('h3', null, 'Request headers'), headerTable(entry.requestHeaders, 'request-headers'),
    bodyBlock('Request body', entry.requestBody, entry.requestBodySize, 'request-body', entry.requestHeaders?.['content-type']),
    h('h3', null, 'Response headers'), headerTable(entry.responseHeaders, 'response-headers'),
    bodyBlock('Response body', entry.responseBody, entry.responseBodySize, 'response-body', entry.responseHeaders?.['content-type']));
}

export async function renderJournal({main, project, params, signal, setParams}) {
  const base = projectPath(project, '/requests');
  const state = {entries: [], evicted: 0, maxSeen: 0, reachedEnd: false, selected: params.get('entry') ? Number(params.get('entry')) : null};
  const filters = {platform: params.get('platform') ?? '', method: params.get('method') ?? '', status: params.get('status') ?? '', path: params.get('path') ?? ''};
  // Control-plane calls that changed something (seeding, clock changes) are recorded too, hidden
  // unless asked for; reads (the dashboard's own polls among them) are not journalled at all.
  let showAdmin = params.get('admin') === 'show';
  const isControlPlane = (entry) => entry.path.startsWith('/__admin');
  // Entries that raised an integration-check finding carry its badge (the findings name their requests).
  const marks = findingMarks(project, signal);

  const live = h('span', {class: 'live', 'data-role': 'live-state'}, 'connecting…');
  const eviction = h('div', {class: 'eviction', 'data-role': 'eviction'});
  const counter = h('span', {class: 'muted', 'data-role': 'row-count'});
  const rows = h('tbody', {'data-role': 'journal-rows'});
  const list = h('table', {class: 'data journal'}, h('thead', null, h('tr', null,
    [['Time', 'col-time'], ['Platform', 'col-platform'], ['Method', 'col-method'], ['Path', 'col-path'], ['Status', 'col-status'],
      ['Duration', 'col-duration num'], ['Fault / finding', 'col-fault']].map(([title, cls]) => h('th', {class: cls}, title)))), rows);
  const older = h('button', {type: 'button', class: 'secondary', 'data-role': 'load-older'}, 'Load older');
  const end = h('div', {class: 'list-end'});
  const detailBox = h('div', {class: 'detail-box'});
  const split = h('div', {class: 'journal-split'},
    h('div', {class: 'card flush'}, h('div', {class: 'journal-list'}, list), h('div', {class: 'list-foot'}, older, end)), detailBox);

  const filterBar = h('form', {class: 'filters', 'data-role': 'journal-filters'},
    select('platform', 'Platform', [['', 'any'], ['warplink', 'WarpLink'], ['asleep', 'Asleep'], ['warrantylife', 'WarrantyLife'], ['telematics', 'Telematics'], ['admin', 'control plane']], filters.platform),
    select('method', 'Method', [['', 'any'], ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => [m, m])], filters.method),
    select('status', 'Status', [['', 'any'], ['2xx', '2xx'], ['3xx', '3xx'], ['4xx', '4xx'], ['5xx', '5xx'], ['0xx', 'no response']], filters.status),
    h('label', {class: 'field compact check'}, h('input', {type: 'checkbox', name: 'admin', 'data-role': 'show-admin', checked: showAdmin}), ' control-plane calls'),
    h('label', {class: 'field compact grow'}, h('span', {class: 'field-label'}, 'Path'),
      h('input', {name: 'path', 'data-filter': 'path', value: filters.path, placeholder: 'contains… or a glob like /asleep/**/upload', autocomplete: 'off'})),
    h('button', {type: 'button', class: 'secondary', 'data-role': 'download-har', title: 'The entries these filters select, as HAR 1.2 (at most 1000)',
      onclick: (event) => downloadHAR(event.currentTarget)}, 'Download HAR'),
    confirmButton('Clear journal', 'Click again to clear', async () => {
      await api('DELETE', base);
      toast('Journal cleared.');
      await reload();
    }, {className: 'secondary'}));

  replace(main, h('div', {class: 'page-head row'}, h('h1', null, 'Journal'), live, h('span', {class: 'spacer'}), counter),
    filterBar, eviction, split);

  const filterQuery = () => ({platform: filters.platform, method: filters.method, status: filters.status, path: pathGlob(filters.path)});

  // The archive of what the filters select, fetched with the admin token (a plain link could not
  // send it) and saved from memory; control-plane calls stay out unless the page shows them.
  async function downloadHAR(button) {
    button.disabled = true;
    try {
      const archive = JSON.parse(await apiText(projectPath(project, '/requests.har') + query(filterQuery()), {signal}));
      if (!showAdmin && filters.platform !== 'admin') archive.log.entries = archive.log.entries.filter((entry) => entry._understudy?.platform !== 'admin');
      const url = URL.createObjectURL(new Blob([JSON.stringify(archive, null, 2)], {type: 'application/json'}));
      const anchor = h('a', {href: url, download: `${project}-requests.har`, hidden: true});
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      toast(`Saved ${archive.log.entries.length} ${archive.log.entries.length === 1 ? 'entry' : 'entries'} as ${project}-requests.har.`);
    } catch (error) {
      if (!signal.aborted) toast(error.message, 'error');
    } finally {
      button.disabled = false;
    }
  }

  // The project answer says where the proxy and the HTTPS listener are, for the cURL commands.
  const projectInfo = api('GET', projectPath(project), undefined, {signal}).catch(() => null);

  function rowFor(entry, fresh = false) {
    const classes = ['clickable', entry.fault ? 'has-fault' : '', fresh ? 'fresh' : '', entry.id === state.selected ? 'selected' : '',
      isControlPlane(entry) ? 'cp-row' : ''].filter(Boolean).join(' ');
    const tr = h('tr', {class: classes, 'data-id': entry.id, tabindex: 0},
      h('td', {class: 'mono nowrap col-time', title: entry.time}, fmtTime(entry.time)),
      h('td', {class: 'col-platform', title: entry.platform}, platformBadge(entry.platform)),
      h('td', {class: 'mono col-method'}, entry.method),
      h('td', {class: 'mono path-cell col-path', title: entry.path + (entry.query ? `?${entry.query}` : '')}, entry.path,
        entry.query ? h('span', {class: 'muted'}, `?${entry.query}`) : null),
      h('td', {class: 'col-status'}, statusChip(entry.status)),
      h('td', {class: 'num nowrap col-duration'}, fmtMs(entry.durationMs)),
      h('td', {class: 'col-fault'}, entry.fault ? h('span', {class: 'fault-badge', title: entry.fault}, '⚡ ', entry.fault) : null, marks.badge(entry.id)));
    tr.addEventListener('click', (event) => { if (!event.target.closest('a')) choose(entry.id); }); // a finding badge navigates
    tr.addEventListener('keydown', (event) => { if (event.key === 'Enter') choose(entry.id); });
    return tr;
  }

  function renderCounts() {
    const hidden = showAdmin ? 0 : state.entries.filter(isControlPlane).length;
    list.classList.toggle('hide-cp', !showAdmin);
    counter.textContent = `${state.entries.length - hidden} shown${hidden ? ` · ${hidden} control-plane calls hidden` : ''}${state.entries.length ? ` · newest #${state.entries[0].id}` : ''}`;
    replace(eviction, state.evicted > 0
      ? h('span', null, `${state.evicted} older ${state.evicted === 1 ? 'entry' : 'entries'} of this project evicted by the journal bounds (journal.maxEntries, journal.maxBytes).`)
      : null);
    eviction.hidden = state.evicted === 0;
    older.hidden = state.reachedEnd || state.entries.length === 0;
    replace(end, state.reachedEnd ? (state.evicted > 0 ? `Oldest kept entry reached; ${state.evicted} older evicted.` : 'Beginning of the journal.') : null);
    if (state.entries.length === hidden) {
      replace(end, empty(state.entries.length ? `Only control-plane calls so far (${hidden} hidden); SDK requests appear here as they arrive.`
        : filtersActive() ? 'No requests match these filters yet; new ones appear here as they arrive.' : 'No requests yet; they appear here as the SDK sends them.'));
    }
  }

  const filtersActive = () => Object.values(filters).some(Boolean);

  function renderRows() {
    replace(rows, state.entries.map((entry) => rowFor(entry)));
    renderCounts();
  }

  function trim() {
    if (state.entries.length <= MAX_ROWS) return;
    state.entries.length = MAX_ROWS;
    while (rows.children.length > MAX_ROWS) rows.lastElementChild.remove();
    state.reachedEnd = false;
  }

  async function showDetail(id) {
    if (id === null) { replace(detailBox); split.classList.remove('with-detail'); return; }
    split.classList.add('with-detail');
    let entry = state.entries.find((candidate) => candidate.id === id);
    if (!entry) {
      replace(detailBox, h('div', {class: 'card'}, h('p', {class: 'muted'}, 'Loading…')));
      try {
        const page = await api('GET', base + query({before: id + 1, limit: 1}), undefined, {signal});
        entry = page.requests.find((candidate) => candidate.id === id);
      } catch (error) {
        replace(detailBox, errorBox(error));
        return;
      }
    }
    const info = await projectInfo;
    if (state.selected !== id) return;
    replace(detailBox, entry ? detail(entry, () => choose(null), info, findingCallout(project, marks.of(id)))
      : h('div', {class: 'card'}, h('p', null, `Entry #${id} is no longer in the journal (evicted, cleared or never recorded).`)));
    // Side by side the detail is in view; stacked (narrow windows) it is below the list.
    if (matchMedia('(max-width: 1100px)').matches) detailBox.scrollIntoView({block: 'start', behavior: 'smooth'});
  }

  function choose(id) {
    state.selected = id;
    setParams({entry: id});
    for (const tr of rows.children) tr.classList.toggle('selected', Number(tr.dataset.id) === id);
    showDetail(id);
  }

  let pollController = null;

  async function poll(controller) {
    while (!controller.signal.aborted) {
      try {
        const page = await api('GET', base + query({...filterQuery(), after: state.maxSeen, waitMs: WAIT_MS, limit: LIVE_PAGE}), undefined, {signal: controller.signal});
        live.textContent = '● live';
        live.className = 'live on';
        state.evicted = page.evicted;
        if (page.requests.length >= LIVE_PAGE) {
          // More arrived than one page holds: show the newest page; older ones stay reachable with "Load older".
          state.entries = page.requests;
          state.reachedEnd = false;
          renderRows();
        } else if (page.requests.length) {
          state.entries = page.requests.concat(state.entries);
          rows.prepend(...page.requests.map((entry) => rowFor(entry, true)));
          trim();
        }
        if (page.requests.length) state.maxSeen = Math.max(state.maxSeen, page.requests[0].id);
        renderCounts();
        if (page.requests.length) marks.refresh(rows);
      } catch (error) {
        if (controller.signal.aborted) return;
        live.textContent = `paused: ${error.message}; retrying`;
        live.className = 'live off';
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
  }

  async function reload() {
    if (pollController) pollController.abort();
    const controller = new AbortController();
    pollController = controller;
    signal.addEventListener('abort', () => controller.abort(), {once: true});
    const page = await api('GET', base + query({...filterQuery(), limit: PAGE}), undefined, {signal: controller.signal});
    if (controller !== pollController) return;
    state.entries = page.requests;
    state.evicted = page.evicted;
    state.reachedEnd = page.requests.length < PAGE;
    state.maxSeen = page.requests.length ? page.requests[0].id : 0;
    renderRows();
    await marks.refresh(rows);
    live.textContent = '● live';
    live.className = 'live on';
    poll(controller);
  }

  older.addEventListener('click', async () => {
    if (!state.entries.length) return;
    older.disabled = true;
    try {
      const page = await api('GET', base + query({...filterQuery(), before: state.entries[state.entries.length - 1].id, limit: PAGE}), undefined, {signal});
      state.entries = state.entries.concat(page.requests);
      rows.append(...page.requests.map((entry) => rowFor(entry)));
      state.evicted = page.evicted;
      state.reachedEnd = page.requests.length < PAGE;
      renderCounts();
      marks.refresh(rows);
    } catch (error) {
      toast(error.message, 'error');
    } finally {
      older.disabled = false;
    }
  });

  let debounce = null;
  const applyFilters = () => {
    for (const control of filterBar.querySelectorAll('[data-filter]')) filters[control.name] = control.value;
    setParams({platform: filters.platform, method: filters.method, status: filters.status, path: filters.path.trim()});
    reload().catch((error) => { if (!signal.aborted) toast(error.message, 'error'); });
  };
  filterBar.addEventListener('change', (event) => {
    if (event.target.matches('select')) applyFilters();
    if (event.target.name === 'admin') {
      showAdmin = event.target.checked;
      setParams({admin: showAdmin ? 'show' : null});
      renderCounts();
    }
  });
  filterBar.addEventListener('input', (event) => {
    if (!event.target.matches('input')) return;
    clearTimeout(debounce);
    debounce = setTimeout(applyFilters, 300);
  });
  filterBar.addEventListener('submit', (event) => { event.preventDefault(); applyFilters(); });

  await reload();
  if (state.selected !== null) showDetail(state.selected);
}
