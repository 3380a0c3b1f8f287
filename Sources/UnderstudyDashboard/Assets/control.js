// Clock, snapshots and outbox pages.

import {api, projectPath, query} from './api.js';
import {confirmButton, empty, field, fmtDateTime, fmtDuration, fmtUTC, formMessage, h, platformBadge, prettyBody, replace,
  reveal, section, table, toast} from './dom.js';
import {watchJournal} from './faults.js';

const pad = (n) => String(n).padStart(2, '0');
const localInputValue = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;

export async function renderClock({main, project, signal}) {
  const path = projectPath(project, '/clock');
  let clock = await api('GET', path, undefined, {signal});
  let skew = Date.parse(clock.now) - Date.now();
  const big = h('div', {class: 'clock-face', 'data-role': 'clock-now'});
  const utc = h('div', {class: 'mono muted', 'data-role': 'clock-utc'});
  const mode = h('div', {class: 'clock-mode', 'data-role': 'clock-mode'});
  const message = h('div', {class: 'form-message', 'data-role': 'clock-message'});

  const projectNow = () => (clock.mode === 'frozen' ? new Date(clock.now) : new Date(Date.now() + skew));
  const draw = () => {
    const now = projectNow();
    big.textContent = fmtDateTime(now.toISOString());
    utc.textContent = fmtUTC(now.toISOString());
    replace(mode, h('span', {class: `badge clock-${clock.mode}`}, clock.mode), ' ',
      clock.mode === 'real' ? 'The project follows real time.'
        : clock.mode === 'frozen' ? 'Frozen: time stands still until you advance or change it.'
          : `Running, offset from real time by ${fmtDuration(clock.offsetSeconds)}.`);
  };
  const apply = async (method, suffix, body, note) => {
    try {
      clock = await api(method, path + suffix, body);
      skew = Date.parse(clock.now) - Date.now();
      draw();
      formMessage(message, note, 'ok');
    } catch (error) {
      formMessage(message, error.message);
    }
  };

  const when = h('input', {type: 'datetime-local', step: 1, name: 'when', value: localInputValue(projectNow())});
  const setMode = h('select', {name: 'setMode'}, h('option', {value: 'frozen'}, 'frozen at'), h('option', {value: 'offset'}, 'running from'));
  const setForm = h('form', {class: 'inline-form', 'data-role': 'clock-set'}, field('Mode', setMode), field('Time (local)', when),
    h('button', {type: 'submit', class: 'primary'}, 'Set clock'));
  setForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const date = new Date(when.value);
    if (Number.isNaN(date.getTime())) { formMessage(message, 'Pick a date and time.'); return; }
    apply('PUT', '', {mode: setMode.value, now: date.toISOString()}, `Clock ${setMode.value === 'frozen' ? 'frozen at' : 'running from'} ${fmtDateTime(date.toISOString())}.`);
  });

  const amount = h('input', {name: 'amount', inputmode: 'decimal', value: '1', class: 'short'});
  const unit = h('select', {name: 'unit'}, [['1', 'seconds'], ['60', 'minutes'], ['3600', 'hours'], ['86400', 'days']]
    .map(([value, text]) => h('option', {value, selected: value === '3600'}, text)));
  const advanceForm = h('form', {class: 'inline-form', 'data-role': 'clock-advance'}, field('Advance by', amount), field('Unit', unit),
    h('button', {type: 'submit', class: 'primary'}, 'Advance'));
  const advance = (seconds) => apply('POST', '/advance', {seconds}, `Advanced by ${fmtDuration(seconds)}.`);
  advanceForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const seconds = Number(amount.value) * Number(unit.value);
    if (!(seconds > 0) || seconds > 10 * 365 * 86400) { formMessage(message, 'Advance by a positive amount of at most ten years.'); return; }
    advance(seconds);
  });
  const quick = h('div', {class: 'button-row', 'data-role': 'clock-quick'},
    [[30, '+30 s'], [60, '+1 min'], [900, '+15 min'], [3600, '+1 h'], [86400, '+1 day'], [7 * 86400, '+1 week']]
      .map(([seconds, label]) => h('button', {type: 'button', class: 'secondary', 'data-seconds': seconds, onclick: () => advance(seconds)}, label)));

  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Clock'),
    h('p', {class: 'muted'}, 'Every time-based rule of this project reads this clock: token expiry, match windows, session limits, created_at fields.')),
  h('section', {class: 'card clock-card'}, big, utc, mode,
    h('div', {class: 'button-row'},
      h('button', {type: 'button', class: 'primary', 'data-role': 'clock-freeze', onclick: () => apply('PUT', '', {mode: 'frozen'}, 'Frozen at the current time.')}, 'Freeze now'),
      h('button', {type: 'button', class: 'secondary', 'data-role': 'clock-real', onclick: () => apply('PUT', '', {mode: 'real'}, 'Back to real time.')}, 'Real time')),
    message),
  section('Advance', quick, advanceForm), section('Set', setForm));
  draw();
  const timer = setInterval(draw, 1000);
  signal.addEventListener('abort', () => clearInterval(timer), {once: true});
}

export async function renderSnapshots({main, project, signal}) {
  const path = projectPath(project, '/snapshots');
  const name = h('input', {name: 'name', placeholder: 'logged-in', maxlength: 64, autocomplete: 'off'});
  const message = h('div', {class: 'form-message', 'data-role': 'snapshot-message'});
  const form = h('form', {class: 'inline-form', 'data-role': 'snapshot-form'}, field('Name', name, 'a–z, A–Z, 0–9, _ and -'),
    h('button', {type: 'submit', class: 'primary'}, 'Take snapshot'), message);
  const listBox = h('div', {'data-role': 'snapshot-list'});
  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Snapshots'),
    h('p', {class: 'muted'}, 'A snapshot copies every row the project owns (all platforms, outbox, clock). Restoring replaces the project’s state in one transaction.')),
  section('Take a snapshot', form), section('Snapshots', listBox));

  const load = async () => {
    const {snapshots} = await api('GET', path, undefined, {signal});
    replace(listBox, snapshots.length ? table([
      ['Name', (snap) => h('strong', {class: 'mono'}, snap.name)], ['Taken', (snap) => fmtDateTime(snap.createdAt)], ['Rows', (snap) => String(snap.rows), 'num'],
      ['', (snap) => h('span', {class: 'row-actions'},
        confirmButton('Restore', 'Click again to restore', async () => {
          await api('POST', `${path}/${encodeURIComponent(snap.name)}/restore`);
          toast(`Restored ${snap.name}.`);
        }, {className: 'secondary'}),
        confirmButton('Delete', 'Really delete?', async () => { await api('DELETE', `${path}/${encodeURIComponent(snap.name)}`); await load(); })), 'actions'],
    ], snapshots) : empty('No snapshots yet.'));
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = name.value.trim();
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) { formMessage(message, 'Snapshot names are 1–64 characters of a–z, A–Z, 0–9, _ and -.'); return; }
    try {
      const snap = await api('POST', path, {name: value});
      formMessage(message, `Saved ${snap.name} (${snap.rows} rows).`, 'ok');
      name.value = '';
      await load();
    } catch (error) {
      formMessage(message, error.message);
    }
  });
  await load();
}

export async function renderOutbox({main, project, params, signal, setParams}) {
  const platform = h('select', {name: 'platform'}, [['', 'any'], ['warplink', 'WarpLink'], ['asleep', 'Asleep'], ['warrantylife', 'WarrantyLife'], ['telematics', 'Telematics']]
    .map(([value, text]) => h('option', {value, selected: value === (params.get('platform') ?? '')}, text)));
  const kind = h('input', {name: 'kind', placeholder: 'email, push, webhook…', value: params.get('kind') ?? ''});
  const filters = h('form', {class: 'filters'}, field('Platform', platform), field('Kind', kind));
  const listBox = h('div', {'data-role': 'outbox-list'});
  const detailBox = h('div');
  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Outbox'),
    h('p', {class: 'muted'}, 'Side effects a real backend would send elsewhere: e-mails, silent pushes and webhook deliveries, with their delivery state.')),
  filters, h('section', {class: 'card flush'}, listBox), detailBox);

  let selected = params.get('message') ? Number(params.get('message')) : null;
  // The detail is drawn under the list: brought into view when picked (or linked to), not when
  // the list refreshes with new traffic.
  const showDetail = (message, {scroll = false} = {}) => {
    if (!message) { replace(detailBox); return; }
    const payload = prettyBody(JSON.stringify(message.payload ?? null));
    const close = () => { selected = null; setParams({message: null}); draw(); };
    const card = h('section', {class: 'card', 'data-role': 'outbox-detail'},
      h('div', {class: 'card-head'}, h('h2', null, `${message.kind} #${message.id}`), h('span', {class: 'spacer'}),
        h('button', {type: 'button', class: 'link-button', onclick: close}, 'Close')),
      h('p', null, platformBadge(message.platform), ' ', message.recipient ?? '', message.subject ? ` · ${message.subject}` : ''),
      message.lastError ? h('p', {class: 'error-text'}, message.lastError) : null,
      h('pre', {class: 'body'}, payload.text));
    replace(detailBox, card);
    if (scroll) reveal(card);
  };
  let messages = [];
  const draw = ({scroll = false} = {}) => {
    const newest = messages.slice().reverse();
    replace(listBox, newest.length ? table([
      ['Created', (m) => fmtDateTime(m.createdAt), 'nowrap'], ['Platform', (m) => platformBadge(m.platform)], ['Kind', (m) => m.kind],
      ['Recipient', (m) => m.recipient ?? '—', 'mono wrap'], ['Subject', (m) => m.subject ?? '—', 'wrap'],
      ['Status', (m) => h('span', {class: `badge outbox-${m.status}`}, m.status)], ['Attempts', (m) => String(m.attempts), 'num'],
    ], newest, {onRowClick: (m) => { selected = m.id; setParams({message: m.id}); draw({scroll: true}); }, selected: (m) => m.id === selected})
      : empty('Nothing sent yet.'));
    showDetail(messages.find((m) => m.id === selected), {scroll});
  };
  let first = true;
  const load = async () => {
    ({messages} = await api('GET', projectPath(project, '/outbox') + query({platform: platform.value, kind: kind.value.trim()}), undefined, {signal}));
    draw({scroll: first});
    first = false;
  };
  filters.addEventListener('change', () => { setParams({platform: platform.value, kind: kind.value.trim()}); load(); });
  filters.addEventListener('submit', (event) => { event.preventDefault(); load(); });
  await load();
  watchJournal(project, signal, load);
}
