// Asleep: users and sessions; a session's report as a hypnogram (one mark per 30-s epoch)
// with its stage mix and the report's numbers.

import {api, errorBox, projectPath} from './api.js';
import {empty, fmtDateTime, fmtDuration, h, replace, reveal, s, section, table} from './dom.js';
import {hypnogram, STAGES} from './charts.js';

const DURATIONS = ['time_in_bed', 'time_in_sleep', 'time_in_sleep_period', 'time_in_wake', 'time_in_light', 'time_in_deep', 'time_in_rem',
  'sleep_latency', 'light_latency', 'deep_latency', 'rem_latency', 'wakeup_latency', 'longest_waso', 'sleep_cycle', 'time_in_snoring', 'time_in_no_snoring',
  'time_in_stable_breath', 'time_in_unstable_breath'];
const RATIOS = ['sleep_efficiency', 'sleep_ratio', 'wake_ratio', 'light_ratio', 'deep_ratio', 'rem_ratio', 'snoring_ratio', 'no_snoring_ratio',
  'stable_breath_ratio', 'unstable_breath_ratio'];
const HEADLINE = ['sleep_efficiency', 'time_in_sleep', 'time_in_bed', 'sleep_latency', 'waso_count', 'sleep_index'];

function statValue(key, value) {
  if (value === null || value === undefined) return '—';
  if (DURATIONS.includes(key) && typeof value === 'number') return fmtDuration(value);
  if (RATIOS.includes(key) && typeof value === 'number') return `${(value * 100).toFixed(1)} %`;
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) return fmtDateTime(value);
  if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
  return String(value);
}

const label = (key) => key.replace(/_/g, ' ');

/** Share of each stage as a stacked bar. */
function stageMix(stages) {
  const counts = new Map();
  stages.forEach((stage) => counts.set(stage, (counts.get(stage) ?? 0) + 1));
  const total = stages.length || 1;
  let x = 0;
  const bar = s('svg', {class: 'mix', viewBox: '0 0 600 16', preserveAspectRatio: 'none', role: 'img', 'aria-label': 'Stage mix'});
  const legend = h('div', {class: 'legend-row'});
  for (const stage of [0, 3, 1, 2, -1]) {
    const count = counts.get(stage) ?? 0;
    if (!count) continue;
    const width = count / total * 600;
    bar.append(s('rect', {class: `mix-part stage-${stage}`, x, y: 0, width, height: 16}));
    x += width;
    legend.append(h('span', {class: 'legend-item'}, h('span', {class: `swatch-box stage-${stage}`}), `${STAGES[stage]} ${(count / total * 100).toFixed(0)} % (${fmtDuration(count * 30)})`));
  }
  return h('div', {class: 'stage-mix'}, bar, legend);
}

function report(session, result) {
  const stages = result.session?.sleep_stages ?? [];
  const snoring = result.session?.snoring_stages ?? null;
  const stat = result.stat ?? null;
  return h('section', {class: 'card', 'data-role': 'session-report', 'data-session': session.sessionId},
    h('h2', null, `Session ${session.sessionId}`),
    h('p', {class: 'muted'}, `${session.userId} · ${session.state} · ${fmtDateTime(session.startTime)} → ${fmtDateTime(session.endTime)} · ${session.timezone}`),
    h('div', {class: 'chips'}, (result.peculiarities ?? []).map((name) => h('span', {class: 'chip chip-warn', 'data-role': 'peculiarity'}, name)),
      h('span', {class: 'chip'}, `missing data ${((result.missing_data_ratio ?? 0) * 100).toFixed(1)} %`),
      h('span', {class: 'chip'}, `${stages.length} epochs of 30 s`)),
    stages.length
      ? [hypnogram(stages, {start: result.session.start_time, snoring, timeZone: result.session.created_timezone || session.timezone}), stageMix(stages)]
      : empty(session.state === 'COMPLETE' ? 'The report has no stages.' : 'No stages yet: while OPEN or CLOSED the report shows whole 10-chunk windows once enough chunks arrived.'),
    stat ? [h('div', {class: 'stats'}, HEADLINE.filter((key) => key in stat).map((key) => h('div', {class: 'stat'}, h('span', {class: 'stat-label'}, label(key)), h('strong', null, statValue(key, stat[key]))))),
      h('details', {class: 'all-stats'}, h('summary', null, 'Every report number'),
        h('table', {class: 'kv'}, h('tbody', null, Object.keys(stat).sort().map((key) => h('tr', null, h('th', null, label(key)), h('td', {class: 'mono'}, statValue(key, stat[key]))))))),
    ] : h('p', {class: 'muted'}, 'stat is null: the session is not complete, or its peculiarities block analysis.'));
}

export async function renderAsleep({main, project, params, signal, setParams}) {
  const base = projectPath(project, '/asleep');
  const get = (path) => api('GET', base + path, undefined, {signal});
  const [{users}, {sessions}] = await Promise.all([get('/users'), get('/sessions')]);
  let selected = params.get('session');
  let userFilter = params.get('user') ?? '';
  const reportBox = h('div', {'data-role': 'report-box'});
  const sessionTable = h('div', {'data-role': 'session-list'});
  const perUser = new Map();
  sessions.forEach((session) => perUser.set(session.userId, (perUser.get(session.userId) ?? 0) + 1));

  const drawSessions = () => {
    const shown = sessions.filter((session) => !userFilter || session.userId === userFilter).slice().reverse();
    replace(sessionTable, userFilter ? h('p', null, `Sessions of ${userFilter} `, h('button', {type: 'button', class: 'link-button', onclick: () => { userFilter = ''; setParams({user: null}); drawSessions(); }}, 'show all')) : null,
      shown.length ? table([
        ['Session', (x) => x.sessionId, 'mono'], ['User', (x) => x.userId, 'mono wrap'],
        ['State', (x) => h('span', {class: `badge state-${x.state.toLowerCase()}`}, x.state)], ['Start', (x) => fmtDateTime(x.startTime), 'nowrap'],
        ['Length', (x) => (x.endTime ? fmtDuration((Date.parse(x.endTime) - Date.parse(x.startTime)) / 1000) : 'open'), 'num'],
        ['Chunks', (x) => String(x.receivedChunks), 'num'],
      ], shown, {onRowClick: (x) => show(x.sessionId), selected: (x) => x.sessionId === selected}) : empty('No sessions.'));
  };

  async function show(id) {
    selected = id;
    setParams({session: id});
    drawSessions();
    const session = sessions.find((candidate) => candidate.sessionId === id);
    if (!session) { replace(reportBox, empty(`No session ${id} in this project.`)); return; }
    replace(reportBox, h('p', {class: 'muted'}, 'Loading report…'));
    try {
      replace(reportBox, report(session, await get(`/sessions/${encodeURIComponent(id)}/report`)));
    } catch (error) {
      replace(reportBox, errorBox(error));
    }
    reveal(reportBox);
  }

  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Asleep'),
    h('p', {class: 'muted'}, `${users.length} users · ${sessions.length} sessions. Pick a session to see its hypnogram and report.`)),
  section('Sessions', sessionTable, reportBox),
  section('Users', users.length ? table([
    ['User', (u) => u.userId, 'mono wrap'], ['Customer', (u) => u.customer, 'mono wrap'], ['Created', (u) => fmtDateTime(u.createdAt), 'nowrap'],
    ['Sessions', (u) => String(perUser.get(u.userId) ?? 0), 'num'],
  ], users, {onRowClick: (u) => { userFilter = u.userId; setParams({user: u.userId}); drawSessions(); }}) : empty('No users.')));
  drawSessions();
  if (selected) show(selected);
}
