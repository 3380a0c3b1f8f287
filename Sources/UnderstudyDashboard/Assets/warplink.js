// WarpLink: links (paged on the server), their clicks and installs on a timeline with a line
// from each install to the click it claimed; apps, keys and domains.

import {api, errorBox, projectPath, query} from './api.js';
import {empty, fmtDateTime, fmtNumber, h, kvTable, replace, safeHref, section, table} from './dom.js';
import {attributionTimeline} from './charts.js';

const PAGE = 50;
const WINDOW = 1000;

function outcomeBadge(install) {
  return h('span', {class: `badge ${install.matched ? 'ok' : 'warn'}`}, install.outcome);
}

function urlText(url) {
  const href = safeHref(url);
  return href ? h('a', {href, target: '_blank', rel: 'noopener noreferrer'}, url) : h('span', null, url ?? '—');
}

function clickTable(clicks) {
  return clicks.length ? table([
    ['Click', (c) => c.id, 'mono'], ['Source', (c) => c.source], ['Clicked', (c) => fmtDateTime(c.clicked_at), 'nowrap'],
    ['Device / fingerprint', (c) => c.device_id ?? c.fingerprint ?? '—', 'mono wrap'], ['IP', (c) => c.ip ?? '—', 'mono'],
    ['Claimed by', (c) => (c.claimed ? h('span', {class: 'badge ok'}, c.claimed_by) : h('span', {class: 'muted'}, 'unclaimed'))],
  ], clicks) : empty('No clicks.');
}

function installTable(installs, linksByID) {
  return installs.length ? table([
    ['Install', (i) => i.install_id, 'mono'], ['Created', (i) => fmtDateTime(i.created_at), 'nowrap'], ['Outcome', outcomeBadge],
    ['Match', (i) => [i.match_type ?? '—', i.match_confidence !== null && i.match_confidence !== undefined ? ` (${fmtNumber(i.match_confidence, 2)})` : '']],
    ['Link', (i) => (i.link_id ? (linksByID.get(i.link_id)?.slug ?? i.link_id) : '—'), 'mono'],
    ['Claimed click', (i) => i.click_id ?? '—', 'mono'], ['Device', (i) => i.device_id ?? '—', 'mono wrap'],
  ], installs) : empty('No installs.');
}

export async function renderWarpLink({main, project, params, signal, setParams}) {
  const base = projectPath(project, '/warplink');
  const get = (path) => api('GET', base + path, undefined, {signal});
  let page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  let selected = params.get('link');
  const [{clicks}, {installs}, {apps}, {keys}, {domains}] = await Promise.all([
    get('/clicks' + query({limit: WINDOW})), get('/installs' + query({limit: WINDOW})), get('/apps'), get('/keys'), get('/domains')]);
  const clicksPerLink = new Map(), installsPerLink = new Map();
  clicks.forEach((c) => clicksPerLink.set(c.link_id, (clicksPerLink.get(c.link_id) ?? 0) + 1));
  installs.forEach((i) => { if (i.link_id) installsPerLink.set(i.link_id, (installsPerLink.get(i.link_id) ?? 0) + 1); });
  const linksByID = new Map();

  const headline = h('p', {class: 'muted'});
  const timelineBox = h('div', {'data-role': 'timeline-box'});
  const linksBox = h('div', {'data-role': 'links'});
  const detailBox = h('div', {'data-role': 'link-detail-box'});
  const installsBox = h('div', {'data-role': 'installs'});
  const windowNote = `${clicks.length >= WINDOW ? `latest ${WINDOW}` : 'all'} clicks and ${installs.length >= WINDOW ? `latest ${WINDOW}` : 'all'} installs`;

  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'WarpLink'), headline),
    section('Attribution', h('p', {class: 'muted'}, 'Circles are clicks (filled: claimed by an install), squares are installs (blue: matched); a line joins each install to the click it claimed.'), timelineBox),
    section('Links', linksBox, detailBox),
    section(`Installs (${installs.length >= WINDOW ? `latest ${WINDOW}` : installs.length}${installs.length > 100 ? ', newest 100 shown' : ''})`, installsBox),
    h('div', {class: 'grid-3'},
      section('Apps', apps.length ? table([['App', (a) => a.name], ['Handle domain', (a) => a.domain, 'mono'], ['Bundle / package', (a) => a.ios_bundle_id ?? a.android_package_name ?? '—', 'mono wrap']], apps) : empty('No apps.')),
      section('Keys', keys.length ? table([['Key', (k) => k.value, 'mono wrap'], ['Kind', (k) => k.kind], ['State', (k) => h('span', {class: `badge ${k.state === 'active' ? 'ok' : 'warn'}`}, k.state)]], keys) : empty('No keys.')),
      section('Domains', domains.length ? table([['Host', (d) => d.hostname, 'mono'], ['State', (d) => h('span', {class: `badge ${d.state === 'verified' ? 'ok' : 'warn'}`}, d.state)]], domains) : empty('No custom domains.'))));

  const drawTimeline = (shownClicks, shownInstalls, title) => replace(timelineBox, h('h3', null, title), attributionTimeline(shownClicks, shownInstalls));
  drawTimeline(clicks.slice(0, 300), installs.slice(0, 300), `Project: ${clicks.length > 300 ? 'latest 300 ' : ''}clicks and installs`);

  async function loadLinks() {
    const {links, total} = await get('/links' + query({limit: PAGE, offset: page * PAGE}));
    links.forEach((l) => linksByID.set(l.id, l));
    headline.textContent = `${total} links · ${windowNote} loaded for the counts below`;
    const pages = Math.max(1, Math.ceil(total / PAGE));
    const pager = h('div', {class: 'pager', 'data-role': 'links-pager'},
      h('button', {type: 'button', class: 'secondary', disabled: page === 0, onclick: () => go(page - 1)}, '← Previous'),
      h('span', {class: 'muted'}, total ? `${page * PAGE + 1}–${Math.min(total, (page + 1) * PAGE)} of ${total} (oldest first)` : '0 links'),
      h('button', {type: 'button', class: 'secondary', disabled: page >= pages - 1, onclick: () => go(page + 1)}, 'Next →'),
      pages > 2 ? h('button', {type: 'button', class: 'link-button', onclick: () => go(pages - 1)}, 'newest') : null);
    replace(linksBox, links.length ? [table([
      ['Slug', (l) => h('strong', {class: 'mono'}, l.slug)], ['Short URL', (l) => l.short_url, 'mono wrap'], ['Destination', (l) => l.destination_url, 'wrap'],
      ['State', (l) => h('span', {class: `badge ${l.is_active ? 'ok' : 'warn'}`}, l.is_active ? (l.expires_at && Date.parse(l.expires_at) < Date.now() ? 'expired' : 'active') : 'inactive')],
      ['Clicks', (l) => String(clicksPerLink.get(l.id) ?? 0), 'num'], ['Installs', (l) => String(installsPerLink.get(l.id) ?? 0), 'num'],
      ['Created', (l) => fmtDateTime(l.created_at), 'nowrap'],
    ], links, {onRowClick: (l) => show(l.id), selected: (l) => l.id === selected}), pager] : empty('No links yet: seed one with POST …/warplink/links.'));
  }

  async function go(next) {
    page = next;
    setParams({page: page || null});
    await loadLinks();
  }

  async function show(id) {
    selected = id;
    setParams({link: id});
    await loadLinks();
    replace(detailBox, h('p', {class: 'muted'}, 'Loading link…'));
    try {
      const [link, {clicks: linkClicks}] = await Promise.all([get(`/links/${encodeURIComponent(id)}`), get('/clicks' + query({link_id: id, limit: 500}))]);
      const linkInstalls = installs.filter((i) => i.link_id === id);
      linksByID.set(link.id, link);
      replace(detailBox, h('article', {class: 'card inset', 'data-role': 'link-detail'},
        h('h3', null, `Link ${link.slug}`, h('span', {class: 'muted'}, ` · ${link.id}`)),
        kvTable([['short_url', link.short_url], ['destination_url', urlText(link.destination_url)], ['ios_url', link.ios_url ?? '—'], ['android_url', link.android_url ?? '—'],
          ['custom_params', JSON.stringify(link.custom_params ?? {})], ['tags', (link.tags ?? []).join(', ') || '—'], ['expires_at', link.expires_at ?? '—'],
          ['match_window_hours', link.match_window_hours ?? 'default'], ['password_protected', String(link.password_protected)]]),
        h('h3', null, `Clicks (${linkClicks.length}) and installs (${linkInstalls.length})`), attributionTimeline(linkClicks, linkInstalls),
        h('h4', null, 'Clicks'), clickTable(linkClicks), h('h4', null, 'Installs'), installTable(linkInstalls, linksByID)));
    } catch (error) {
      replace(detailBox, errorBox(error));
    }
  }

  await loadLinks();
  replace(installsBox, installTable(installs.slice(0, 100), linksByID));
  if (selected) show(selected);
}
