// Projects: the list (create, reset, delete) and one project's overview (credentials, SDK
// settings with copy buttons, device setup, latest requests).

import {api, errorBox, projectPath, query} from './api.js';
import {confirmButton, copyButton, empty, field, fmtDateTime, fmtTime, formMessage, h, isHTTPURL, kvTable, link, platformBadge,
  replace, section, statusChip, table, toast} from './dom.js';

const ROOT = '/__admin/ui';
const PLATFORMS = ['warplink', 'asleep', 'warrantylife', 'telematics'];
const PLATFORM_NAMES = {warplink: 'WarpLink', asleep: 'Asleep', warrantylife: 'WarrantyLife', telematics: 'Telematics'};
// Fields every project answer has; anything else (HTTPS, proxy, CA…) is shown under "Device setup".
const KNOWN_FIELDS = new Set(['id', 'name', 'seed', 'createdAt', 'isDemo', 'clock', 'credentials', 'baseURLs', 'sdkSettings']);
// Headings for the device-setup fields the server reports today; others show under their own name.
const FIELD_TITLES = {httpsBaseURLs: 'HTTPS base URLs', connections: 'How each SDK reaches Understudy', proxy: 'Proxy'};

export const projectURL = (id, section = '') => `${ROOT}/projects/${encodeURIComponent(id)}${section ? '/' + section : ''}`;

function clockText(clock) {
  if (!clock) return '—';
  if (clock.mode === 'real') return 'real time';
  if (clock.mode === 'frozen') return `frozen at ${fmtDateTime(clock.frozenAt ?? clock.now)}`;
  return `offset ${Math.round(clock.offsetSeconds)} s`;
}

export async function renderProjects({main, signal, navigate}) {
  const name = h('input', {name: 'name', placeholder: 'checkout-tests', maxlength: 200});
  const seed = h('input', {name: 'seed', inputmode: 'numeric', placeholder: 'optional'});
  const id = h('input', {name: 'id', placeholder: 'optional', maxlength: 64});
  const message = h('div', {class: 'form-message'});
  const form = h('form', {class: 'inline-form', 'data-role': 'create-project'},
    field('Name', name), field('Seed', seed, 'repeatable ids'), field('Id', id, 'a–z, 0–9, _ and -'),
    h('button', {type: 'submit', class: 'primary'}, 'Create project'), message);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {};
    if (name.value.trim()) body.name = name.value.trim();
    if (seed.value.trim()) {
      if (!/^\d{1,19}$/.test(seed.value.trim())) { formMessage(message, 'The seed is a whole number of at most 19 digits.'); return; }
      body.seed = Number(seed.value.trim());
    }
    if (id.value.trim()) {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id.value.trim())) { formMessage(message, 'Ids are 1–64 characters of a–z, A–Z, 0–9, _ and -.'); return; }
      body.id = id.value.trim();
    }
    try {
      const project = await api('POST', '/__admin/projects', body);
      navigate(projectURL(project.id));
    } catch (error) {
      formMessage(message, error.message);
    }
  });

  const listBox = h('div', {'data-role': 'project-list'}, h('p', {class: 'muted'}, 'Loading…'));
  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Projects'),
    h('p', {class: 'muted'}, 'Each project is a tenant with its own credentials, state, clock, faults and journal.')),
  section('New project', form), section('All projects', listBox));

  const load = async () => {
    const {projects} = await api('GET', '/__admin/projects', undefined, {signal});
    if (!projects.length) { replace(listBox, empty('No projects yet: create one above.')); return; }
    replace(listBox, table([
      ['Name', (p) => link(projectURL(p.id), p.name || p.id), 'strong'],
      ['Id', (p) => p.id, 'mono'],
      ['Created', (p) => fmtDateTime(p.createdAt)],
      ['Clock', (p) => clockText(p.clock)],
      ['', (p) => (p.isDemo ? h('span', {class: 'badge'}, 'demo') : null)],
      ['', (p) => h('span', {class: 'row-actions'},
        link(projectURL(p.id, 'journal'), 'Journal'),
        confirmButton('Reset', 'Really reset?', async () => { await api('POST', projectPath(p.id, '/reset')); toast(`Reset ${p.id}`); }, {className: 'secondary'}),
        confirmButton('Delete', 'Really delete?', async () => { await api('DELETE', projectPath(p.id)); toast(`Deleted ${p.id}`); await load(); })), 'actions'],
    ], projects));
  };
  await load();
}

function platformCard(project, platform) {
  const settings = project.sdkSettings?.[platform] ?? {};
  const credentials = project.credentials?.[platform] ?? {};
  return h('section', {class: `card platform-card b-${platform}`, 'data-platform': platform},
    h('div', {class: 'card-head'}, h('h2', null, h('span', {class: `dot p-${platform}`}), PLATFORM_NAMES[platform]),
      h('span', {class: 'spacer'}), copyButton(JSON.stringify(settings, null, 2), 'Copy as JSON'),
      link(projectURL(project.id, platform), 'State →')),
    h('h3', null, 'SDK settings'),
    Object.keys(settings).length ? kvTable(Object.entries(settings).sort(), {copy: true}) : empty('None.'),
    h('h3', null, 'Credentials'),
    Object.keys(credentials).length ? kvTable(Object.entries(credentials).sort(), {copy: true}) : empty('None.'),
    h('h3', null, 'Base URL'), kvTable([['baseURL', project.baseURLs?.[platform] ?? '—'],
      ...(project.httpsBaseURLs?.[platform] ? [['HTTPS', project.httpsBaseURLs[platform]]] : [])], {copy: true}));
}

/**
 * One value of the device-setup fields as something to read: objects as nested name/value rows
 * (platform keys by their product names), lists as one line each, scalars as text with a copy
 * button, and the CA certificate's URL as a download. Never JSON text.
 */
function deviceValue(key, value) {
  if (Array.isArray(value)) {
    if (!value.length) return h('span', {class: 'muted'}, 'none');
    return h('ul', {class: 'values'}, value.map((item) => h('li', null, deviceValue(key, item))));
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (!entries.length) return h('span', {class: 'muted'}, 'none');
    return h('table', {class: 'kv nested'}, h('tbody', null, entries.map(([name, inner]) => h('tr', {'data-key': name},
      h('th', {scope: 'row'}, PLATFORM_NAMES[name] ?? name), h('td', null, deviceValue(name, inner))))));
  }
  if (value === null || value === undefined) return h('span', {class: 'muted'}, '—');
  const text = String(value);
  if (isHTTPURL(text) && (/cert|\bca\b|pem|crt/i.test(key) || /\.(pem|crt|cer)(\?|$)/i.test(text))) {
    return h('span', {class: 'value-line'}, h('a', {href: text, download: '', class: 'button secondary'}, 'Download CA certificate'),
      h('span', {class: 'mono muted'}, text));
  }
  return h('span', {class: 'value-line'}, h('span', {class: 'mono'}, text), copyButton(text));
}

function deviceSetup(project) {
  const extra = Object.entries(project).filter(([key]) => !KNOWN_FIELDS.has(key));
  return h('section', {class: 'card', 'data-role': 'device-setup'}, h('h2', null, 'Device setup: HTTPS, proxy and CA certificate'),
    extra.length
      ? h('div', null, extra.map(([key, value]) => h('div', {class: 'device-field', 'data-field': key},
        h('h3', {title: key}, FIELD_TITLES[key] ?? key), deviceValue(key, value))))
      : h('p', {class: 'muted'}, 'This server does not report an HTTPS endpoint, proxy or CA certificate for devices. ',
        'Simulators reach the plain-HTTP base URLs above; when the server offers HTTPS or a proxy, its addresses and the CA certificate download appear here.'));
}

export async function renderOverview({main, project: id, signal, navigate}) {
  const project = await api('GET', projectPath(id), undefined, {signal});
  const latest = h('div', null, h('p', {class: 'muted'}, 'Loading…'));
  replace(main,
    h('div', {class: 'page-head'},
      h('h1', null, project.name || project.id, project.isDemo ? h('span', {class: 'badge'}, 'demo') : null),
      h('p', {class: 'muted'}, h('span', {class: 'mono'}, project.id), ` · created ${fmtDateTime(project.createdAt)}`,
        project.seed !== undefined ? ` · seed ${project.seed}` : '', ' · clock: ', link(projectURL(id, 'clock'), clockText(project.clock))),
      h('div', {class: 'head-actions'},
        confirmButton('Reset state', 'Click again to reset', async () => { await api('POST', projectPath(id, '/reset')); toast('Project reset: state, journal, faults and clock cleared.'); navigate(projectURL(id)); }, {className: 'secondary'}),
        confirmButton('Delete project', 'Click again to delete', async () => { await api('DELETE', projectPath(id)); toast(`Deleted ${id}`); navigate(ROOT); }))),
    h('div', {class: 'grid-2'}, PLATFORMS.map((platform) => platformCard(project, platform))),
    deviceSetup(project),
    section('Latest SDK requests', latest));
  try {
    const page = await api('GET', projectPath(id, '/requests') + query({limit: 200}), undefined, {signal});
    const sdk = page.requests.filter((entry) => !entry.path.startsWith('/__admin')).slice(0, 8);
    replace(latest, sdk.length ? table([
      ['Time', (e) => fmtTime(e.time), 'mono'], ['Platform', (e) => platformBadge(e.platform)], ['Method', (e) => e.method, 'mono nowrap'],
      ['Path', (e) => h('span', {title: e.path}, link(projectURL(id, 'journal') + `?entry=${e.id}`, e.path)), 'mono wrap'], ['Status', (e) => statusChip(e.status)],
    ], sdk) : empty('No SDK requests yet. Point an SDK at the base URLs above.'),
    link(projectURL(id, 'journal'), 'Open the live journal →'));
  } catch (error) {
    replace(latest, errorBox(error));
  }
}
