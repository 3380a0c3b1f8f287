// Fault rules: what is armed, how often it matched and fired, a form to add one (checked here
// before it is sent; the server's own refusal is shown as it says it), and delete.

import {api, projectPath, query} from './api.js';
import {confirmButton, empty, field, fmtDuration, formMessage, h, platformBadge, replace, section, table, toast} from './dom.js';

const ACTIONS = [
  ['status', 'status: answer with an error status'], ['delay', 'delay: answer late'], ['hang', 'hang: hold the socket, answer nothing'],
  ['reset', 'reset: TCP reset'], ['closeAfterHeaders', 'closeAfterHeaders: head only, then close'],
  ['truncate', 'truncate: cut the body'], ['malformedJSON', 'malformedJSON: 2xx with broken JSON'],
];

const integer = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** The rule body from the form's values, or a message saying what is wrong with them. */
export function buildRule(values) {
  const match = {};
  if (values.platform) match.platform = values.platform;
  if (values.method) match.method = values.method;
  if (values.path.trim()) {
    if (!/^[/*]/.test(values.path.trim())) return {problem: 'The path glob starts with / (or *), e.g. /asleep/ai/v1/** or **/upload.'};
    match.path = values.path.trim();
  }
  if (values.headers.trim()) {
    match.headers = {};
    for (const line of values.headers.split('\n').map((l) => l.trim()).filter(Boolean)) {
      const colon = line.indexOf(':');
      if (colon < 1) return {problem: `Header matches are “name: value” lines; “${line}” has no name.`};
      match.headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  const action = {type: values.action};
  if (values.action === 'status') {
    const status = integer(values.status || '503');
    if (!(status >= 100 && status <= 599)) return {problem: 'The status is a whole number from 100 to 599.'};
    action.status = status;
    if (values.retryAfter.trim()) {
      const retry = integer(values.retryAfter);
      if (!(retry >= 0)) return {problem: 'Retry-After is a whole number of seconds (0 or more).'};
      action.retryAfter = retry;
    }
    if (values.body.trim()) {
      try { action.body = JSON.parse(values.body); } catch { return {problem: 'The custom body must be JSON (or empty for the platform’s own error body).'}; }
    }
  }
  if ((values.action === 'delay' || values.action === 'hang') && values.delayMs.trim()) {
    const delay = integer(values.delayMs);
    if (!(delay >= 0 && delay <= 600000)) return {problem: 'The delay is 0–600000 milliseconds.'};
    action.delayMs = delay;
  }
  if (values.action === 'truncate' && values.bytes.trim()) {
    const bytes = integer(values.bytes);
    if (!(bytes >= 0)) return {problem: 'The byte count is a whole number, 0 or more.'};
    action.bytes = bytes;
  }
  const rule = {match, action};
  if (values.times.trim()) {
    const times = integer(values.times);
    if (!(times >= 1)) return {problem: '“Times” is a whole number, at least 1 (empty: every matching request).'};
    rule.times = times;
  }
  if (values.after.trim()) {
    const after = integer(values.after);
    if (!(after >= 0)) return {problem: '“Let through first” is a whole number, 0 or more.'};
    rule.after = after;
  }
  if (values.probability.trim()) {
    const probability = Number(values.probability.trim());
    if (!(probability >= 0 && probability <= 1)) return {problem: 'The probability is a number from 0 to 1.'};
    rule.probability = probability;
  }
  if (values.ttlSeconds.trim()) {
    const ttl = Number(values.ttlSeconds.trim());
    if (!(ttl > 0 && ttl <= 86400)) return {problem: 'The TTL is more than 0 and at most 86400 seconds (one day).'};
    rule.ttlSeconds = ttl;
  }
  return {rule};
}

function describeMatch(rule) {
  const m = rule.match ?? {};
  const parts = [m.platform ? platformBadge(m.platform) : h('span', {class: 'muted'}, 'any platform'), ' ',
    h('span', {class: 'mono'}, m.method ?? '*'), ' ', h('span', {class: 'mono'}, m.path ?? '**')];
  for (const [name, value] of Object.entries(m.headers ?? {})) parts.push(h('div', {class: 'mono muted'}, `${name}: ${value}`));
  return h('div', null, parts);
}

function describeAction(rule) {
  const a = rule.action ?? {};
  const extra = [a.status ? `status ${a.status}` : '', a.delayMs !== undefined && a.delayMs !== null ? `${a.delayMs} ms` : '',
    a.bytes !== undefined && a.bytes !== null ? `${a.bytes} bytes` : '', a.retryAfter !== undefined && a.retryAfter !== null ? `Retry-After ${a.retryAfter}` : '',
    a.body !== undefined && a.body !== null ? 'custom body' : ''].filter(Boolean).join(', ');
  return h('span', null, h('strong', null, a.type), extra ? ` (${extra})` : '');
}

function describeSchedule(rule) {
  return [rule.times ? `at most ${rule.times}×` : 'every match', rule.after ? `after ${rule.after}` : '',
    rule.probability !== undefined && rule.probability !== null ? `p=${rule.probability}` : ''].filter(Boolean).join(', ');
}

export async function renderFaults({main, project, signal}) {
  const scoped = projectPath(project, '/faults');
  const values = () => Object.fromEntries([...form.querySelectorAll('[name]')].map((control) => [control.name, control.value]));
  const input = (name, props = {}) => h('input', {name, autocomplete: 'off', ...props});
  const actionSelect = h('select', {name: 'action'}, ACTIONS.map(([value, text]) => h('option', {value}, text)));
  const message = h('div', {class: 'form-message', 'data-role': 'fault-message'});
  const only = (types, node) => { node.dataset.for = types; return node; };
  const conditional = [
    only('status', field('Status', input('status', {value: '503', inputmode: 'numeric'}))),
    only('status', field('Retry-After (s)', input('retryAfter', {inputmode: 'numeric', placeholder: 'none'}))),
    only('status', field('Custom body (JSON)', h('textarea', {name: 'body', rows: 1, placeholder: 'the platform’s own error body'}))),
    only('delay hang', field('Delay / hold (ms)', input('delayMs', {inputmode: 'numeric', placeholder: 'hang: 30000'}))),
    only('truncate', field('Bytes to send', input('bytes', {inputmode: 'numeric', placeholder: 'half the body'}))),
  ];
  const form = h('form', {class: 'fault-form', 'data-role': 'fault-form', novalidate: true},
    h('div', {class: 'form-grid'},
      field('Platform', h('select', {name: 'platform'}, [['', 'any'], ['warplink', 'WarpLink'], ['asleep', 'Asleep'], ['warrantylife', 'WarrantyLife'], ['telematics', 'Telematics']]
        .map(([value, text]) => h('option', {value}, text)))),
      field('Method', h('select', {name: 'method'}, ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => h('option', {value: m}, m || 'any')))),
      h('div', {class: 'span-2'}, field('Path glob (* within a segment, ** across)', input('path', {placeholder: '/asleep/ai/v1/sessions/*/upload'})))),
    h('div', {class: 'form-grid'}, field('Action', actionSelect), conditional),
    h('div', {class: 'form-grid'},
      field('Times (empty: every match)', input('times', {inputmode: 'numeric', placeholder: 'every match'})),
      field('Let through first', input('after', {inputmode: 'numeric', placeholder: '0'})),
      field('Probability (0–1)', input('probability', {inputmode: 'decimal', placeholder: '1'})),
      field('TTL (s): removes itself', input('ttlSeconds', {inputmode: 'decimal', value: '600'})),
      h('div', {class: 'span-2'}, field('Header matches (name: value per line)', h('textarea', {name: 'headers', rows: 1, placeholder: 'x-user-id: u1'})))),
    h('div', {class: 'form-actions'}, h('button', {type: 'submit', class: 'primary'}, 'Add fault rule'), message));

  const showActionFields = () => {
    for (const node of conditional) node.hidden = !node.dataset.for.split(' ').includes(actionSelect.value);
  };
  actionSelect.addEventListener('change', showActionFields);
  showActionFields();

  const rulesBox = h('div', {'data-role': 'fault-rules'}, h('p', {class: 'muted'}, 'Loading…'));
  const globalBox = h('div', {'data-role': 'global-fault-rules'});
  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Faults'),
    h('p', {class: 'muted'}, 'Rules make matching SDK requests fail the way production fails. The control plane never faults. Hit counts update live.')),
  section('Add a rule', form), section('Rules of this project', rulesBox), section('Rules for every project', globalBox));

  const expiryCells = [];
  const ruleTable = (rules, path) => table([
    ['Rule', (r) => h('span', {class: 'mono'}, r.id)],
    ['Match', describeMatch], ['Action', describeAction], ['Schedule', describeSchedule],
    ['Matched', (r) => String(r.matched ?? 0), 'num'], ['Hits', (r) => h('strong', {'data-role': 'hits'}, String(r.hits ?? 0)), 'num'],
    ['Expires in', (r) => { const cell = h('span', {'data-expires': r.expiresAt}); expiryCells.push(cell); return cell; }],
    ['', (r) => confirmButton('Delete', 'Really delete?', async () => { await api('DELETE', `${path}/${encodeURIComponent(r.id)}`); await load(); }), 'actions'],
  ], rules, {rowClass: () => 'fault-row'});

  const tick = () => {
    for (const cell of expiryCells) cell.textContent = fmtDuration((new Date(cell.dataset.expires) - Date.now()) / 1000);
  };

  async function load() {
    const [mine, global] = await Promise.all([api('GET', scoped, undefined, {signal}), api('GET', '/__admin/faults', undefined, {signal})]);
    expiryCells.length = 0;
    replace(rulesBox, mine.rules.length ? [ruleTable(mine.rules, scoped),
      h('div', {class: 'list-foot'}, confirmButton('Delete all', 'Really delete all?', async () => { await api('DELETE', scoped); await load(); }))]
      : empty('No fault rules: every request is answered normally (unless it carries X-Understudy-Fault).'));
    replace(globalBox, global.rules.length ? ruleTable(global.rules, '/__admin/faults') : empty('None.'));
    tick();
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const built = buildRule(values());
    if (built.problem) { formMessage(message, built.problem); return; }
    try {
      const stored = await api('POST', scoped, built.rule);
      formMessage(message, `Added ${stored.id}.`, 'ok');
      toast(`Fault rule ${stored.id} armed.`);
      await load();
    } catch (error) {
      formMessage(message, `The server refused the rule: ${error.message}`);
    }
  });

  await load();
  const timer = setInterval(tick, 1000);
  signal.addEventListener('abort', () => clearInterval(timer), {once: true});
  watchJournal(project, signal, load);
}

/** Calls `onTraffic` whenever platform (not control-plane) requests reach the journal. */
export async function watchJournal(project, signal, onTraffic) {
  let after = 0;
  try {
    const first = await api('GET', projectPath(project, '/requests') + query({limit: 1}), undefined, {signal});
    after = first.requests.length ? first.requests[0].id : 0;
  } catch { return; }
  while (!signal.aborted) {
    try {
      const page = await api('GET', projectPath(project, '/requests') + query({after, waitMs: 25000, limit: 50}), undefined, {signal});
      if (page.requests.length) after = Math.max(after, page.requests[0].id);
      // Our own reloads are control-plane entries; reacting to them would loop.
      if (page.requests.some((entry) => entry.platform !== 'admin')) await onTraffic();
    } catch (error) {
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}
