// The single-page shell: every dashboard URL loads this file, which picks the page from the
// path (history API), so links can be shared and pages reloaded.

import {api, APIError, errorBox, forgetToken, onTokenChange, projectPath, storedToken} from './api.js';
import {h, link, replace} from './dom.js';
import {renderOverview, renderProjects} from './projects.js';
import {renderJournal} from './journal.js';
import {renderFaults} from './faults.js';
import {renderClock, renderOutbox, renderSnapshots} from './control.js';
import {renderWarpLink} from './warplink.js';
import {renderAsleep} from './asleep.js';
import {renderWarrantyLife} from './warrantylife.js';
import {renderTelematics} from './telematics.js';
import {renderUnmatched} from './unmatched.js';
import {markChecksNav, renderChecks} from './checks.js';
import {renderDevices} from './devices.js';

const ROOT = '/__admin/ui';

const SECTIONS = [
  ['', 'Overview', renderOverview],
  ['journal', 'Journal', renderJournal],
  ['checks', 'Checks', renderChecks],
  ['faults', 'Faults', renderFaults],
  ['clock', 'Clock', renderClock],
  ['snapshots', 'Snapshots', renderSnapshots],
  ['outbox', 'Outbox', renderOutbox],
  ['devices', 'Devices', renderDevices],
  ['warplink', 'WarpLink', renderWarpLink, 'platform'],
  ['asleep', 'Asleep', renderAsleep, 'platform'],
  ['warrantylife', 'WarrantyLife', renderWarrantyLife, 'platform'],
  ['telematics', 'Telematics', renderTelematics, 'platform'],
];

let current = null; // {controller} of the page on screen

export function navigate(url, {replace: replaceState = false} = {}) {
  if (replaceState) history.replaceState(null, '', url); else history.pushState(null, '', url);
  route();
}

/** Changes the query of the current URL without reloading the page's data. */
export function setParams(changes, {push = false} = {}) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') url.searchParams.delete(key);
    else url.searchParams.set(key, String(value));
  }
  if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
}

function parse(pathname) {
  const rest = pathname.startsWith(ROOT) ? pathname.slice(ROOT.length) : null;
  if (rest === null) return null;
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return {page: 'projects'};
  if (parts.length === 1 && parts[0] === 'unmatched') return {page: 'unmatched'};
  if (parts[0] !== 'projects' || parts.length > 3 || parts.length < 2) return null;
  const section = parts[2] ?? '';
  const entry = SECTIONS.find(([key]) => key === section);
  return entry ? {page: 'project', project: parts[1], section: entry} : null;
}

const projectNames = new Map();

async function renderSidebar(projectID, activeKey, signal) {
  const sidebar = document.getElementById('sidebar');
  sidebar.hidden = false;
  const base = `${ROOT}/projects/${encodeURIComponent(projectID)}`;
  const item = ([key, label, , kind]) => h('li', {class: kind === 'platform' ? 'platform-item' : null},
    h('a', {href: key ? `${base}/${key}` : base, 'data-link': true, class: key === activeKey ? 'active' : null,
      'aria-current': key === activeKey ? 'page' : null}, kind === 'platform' ? h('span', {class: `dot p-${key}`}) : null, label));
  const title = h('div', {class: 'sidebar-project'}, h('span', {class: 'label'}, 'Project'),
    h('strong', {class: 'mono'}, projectNames.get(projectID) ?? projectID));
  replace(sidebar, title,
    h('ul', {class: 'nav'}, SECTIONS.filter((entry) => entry[3] !== 'platform').map(item)),
    h('div', {class: 'nav-heading'}, 'Platforms'),
    h('ul', {class: 'nav'}, SECTIONS.filter((entry) => entry[3] === 'platform').map(item)),
    h('div', {class: 'nav-foot'}, link(ROOT, '← All projects')));
  if (!projectNames.has(projectID)) {
    try {
      const project = await api('GET', projectPath(projectID), undefined, {signal});
      projectNames.set(projectID, project.name || project.id);
      title.lastChild.textContent = projectNames.get(projectID);
    } catch { /* the page itself reports a missing project */ }
  }
}

function renderCrumbs(target) {
  const crumbs = document.getElementById('crumbs');
  // The server-wide Unmatched page has no place under Projects; the top bar marks it.
  if (target && target.page === 'unmatched') { replace(crumbs); return; }
  const parts = [link(ROOT, 'Projects')];
  if (target && target.project) {
    parts.push(h('span', {class: 'sep'}, '/'), link(`${ROOT}/projects/${encodeURIComponent(target.project)}`, target.project));
    if (target.section[0]) parts.push(h('span', {class: 'sep'}, '/'), h('span', null, target.section[1]));
  }
  replace(crumbs, parts);
}

/** Marks the top bar's link to the page on screen (a project's pages belong to Projects). */
function renderTopNav(target) {
  const active = target ? (target.page === 'unmatched' ? 'unmatched' : 'projects') : null;
  for (const anchor of document.querySelectorAll('#topnav a[data-nav]')) {
    const current = anchor.dataset.nav === active;
    anchor.classList.toggle('active', current);
    if (current) anchor.setAttribute('aria-current', 'page'); else anchor.removeAttribute('aria-current');
  }
}

function renderTokenState() {
  const box = document.getElementById('token-state');
  if (!storedToken()) { replace(box); return; }
  replace(box, h('span', {class: 'muted'}, 'admin token set'), ' ',
    h('button', {type: 'button', class: 'link-button', onclick: () => { forgetToken(); route(); }}, 'forget'));
}

async function route() {
  if (current) current.controller.abort();
  const controller = new AbortController();
  current = {controller};
  const main = document.getElementById('main');
  const target = parse(location.pathname);
  renderCrumbs(target);
  renderTopNav(target);
  renderTokenState();
  replace(main);
  const params = new URLSearchParams(location.search);
  const context = {main, params, signal: controller.signal, navigate, setParams};
  try {
    if (!target) {
      document.getElementById('sidebar').hidden = true;
      document.title = 'No such page · Understudy';
      main.append(h('div', {class: 'card'}, h('h1', null, 'No such page'),
        h('p', null, 'The dashboard has no page at this address. '), link(ROOT, 'Go to the projects')));
      return;
    }
    if (target.page === 'projects') {
      document.getElementById('sidebar').hidden = true;
      document.title = 'Projects · Understudy';
      await renderProjects(context);
      return;
    }
    if (target.page === 'unmatched') {
      document.getElementById('sidebar').hidden = true;
      document.title = 'Unmatched requests · Understudy';
      await renderUnmatched(context);
      return;
    }
    context.project = target.project;
    document.title = `${target.section[1]} · ${target.project} · Understudy`;
    renderSidebar(target.project, target.section[0], controller.signal);
    markChecksNav(target.project, controller.signal);
    await target.section[2](context);
  } catch (error) {
    if (controller.signal.aborted) return;
    if (error instanceof APIError && error.status === 404 && target && target.project && /Project/.test(error.message)) {
      replace(main, h('div', {class: 'card'}, h('h1', null, 'No such project'),
        h('p', null, `There is no project “${target.project}” on this server (it may have been deleted). `), link(ROOT, 'See all projects')));
      return;
    }
    main.append(errorBox(error));
  }
}

document.addEventListener('click', (event) => {
  const anchor = event.target.closest('a[data-link]');
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  if (url.pathname + url.search !== location.pathname + location.search) navigate(url.pathname + url.search);
});
window.addEventListener('popstate', route);
onTokenChange(renderTokenState);
route();
