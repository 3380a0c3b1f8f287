// The integration checks of a project: its findings (`GET …/findings`), grouped by severity, each
// explained and linked to the journal entries that show it, and the rules with the project's
// settings (`GET`/`PATCH …/checks`). Also the pieces other pages use: the journal's badges on the
// entries that raised a finding, and the count beside "Checks" in the sidebar.

import {api, errorBox, projectPath} from './api.js';
import {confirmButton, empty, fmtDateTime, h, kvTable, link, platformBadge, replace, toast} from './dom.js';

const ROOT = '/__admin/ui';
const SEVERITIES = ['error', 'warning', 'info'];
const HEADINGS = {error: 'Errors', warning: 'Warnings', info: 'Info'};
const REFRESH_MS = 5000;

const checksURL = (project, rule) => `${ROOT}/projects/${encodeURIComponent(project)}/checks${rule ? `#${encodeURIComponent(rule)}` : ''}`;
const entryURL = (project, id) => `${ROOT}/projects/${encodeURIComponent(project)}/journal?entry=${id}`;

/** The rule's section of docs/checks.md: its heading is the rule id; the anchor drops the dots, as GitHub's does. */
export const guideSection = (rule) => `docs/checks.md#${rule.toLowerCase().replace(/[^a-z0-9_-]/g, '')}`;

const rank = (severity) => { const index = SEVERITIES.indexOf(severity); return index < 0 ? SEVERITIES.length : index; };

/** The most serious severity among `findings`, or null. */
const worst = (findings) => findings.reduce((best, finding) => (best === null || rank(finding.severity) < rank(best) ? finding.severity : best), null);

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** `1 error, 2 warnings`. */
function counts(findings) {
  return SEVERITIES.map((severity) => [severity, findings.filter((finding) => finding.severity === severity).length])
    .filter(([, count]) => count).map(([severity, count]) => plural(count, severity)).join(', ');
}

const severityBadge = (severity) => h('span', {class: `badge sev-${severity}`, 'data-role': 'severity'}, severity);

// MARK: The sidebar count

/** Puts the number of findings beside the sidebar's "Checks", coloured by the worst; nothing when there are none. */
export function showNavCount(findings) {
  const anchor = document.querySelector('#sidebar a[data-section=checks]') ?? document.querySelector('#sidebar a[href$="/checks"]');
  if (!anchor) return;
  anchor.querySelector('.nav-count')?.remove();
  if (!findings.length) return;
  anchor.append(h('span', {class: `nav-count sev-${worst(findings)}`, 'data-role': 'checks-count', title: counts(findings)}, String(findings.length)));
}

/** Fetches the project's findings for the sidebar count; a failure leaves the sidebar as it is. */
export async function markChecksNav(project, signal) {
  try {
    showNavCount((await api('GET', projectPath(project, '/findings'), undefined, {signal})).findings);
  } catch { /* the page itself reports what is wrong */ }
}

// MARK: Journal badges

/**
 * The findings each journal entry raised, for the journal page: `badge(id)` gives a slot for a
 * row, `refresh(root)` reloads the findings and fills every slot under `root`. A finding keeps the
 * ids of its first and latest requests (20 at most), so those are the entries marked.
 */
export function findingMarks(project, signal) {
  let byRequest = new Map();
  const fill = (slot) => {
    const findings = byRequest.get(Number(slot.dataset.id)) ?? [];
    replace(slot, findings.map((finding) => h('a', {href: checksURL(project, finding.rule), 'data-link': true,
      class: `finding-badge sev-${finding.severity}`, 'data-role': 'finding-badge', 'data-rule': finding.rule,
      title: `${finding.severity}: ${finding.title} (${finding.rule}, device ${finding.device}); open the Checks page`}, '⚑ ', finding.rule)));
  };
  return {
    /** A slot for entry `id`'s badges, filled now from what is known. */
    badge(id) {
      const slot = h('span', {class: 'finding-slot', 'data-role': 'finding-slot', 'data-id': id});
      fill(slot);
      return slot;
    },
    /** The findings of entry `id`. */
    of(id) { return byRequest.get(Number(id)) ?? []; },
    /** Reloads the findings and redraws every slot under `root`. */
    async refresh(root) {
      try {
        const {findings} = await api('GET', projectPath(project, '/findings'), undefined, {signal});
        const next = new Map();
        for (const finding of findings) {
          for (const id of finding.requests) next.set(id, [...(next.get(id) ?? []), finding]);
        }
        byRequest = next;
        showNavCount(findings);
        for (const slot of root.querySelectorAll('[data-role=finding-slot]')) fill(slot);
      } catch { /* badges are extra: the journal works without them */ }
    },
  };
}

/** The findings an entry raised, for the journal's detail of it. */
export function findingCallout(project, findings) {
  if (!findings.length) return null;
  return h('div', {class: 'finding-callout', 'data-role': 'entry-findings'},
    findings.map((finding) => h('div', null, severityBadge(finding.severity), ' ', h('strong', null, finding.title), ' ',
      link(checksURL(project, finding.rule), finding.rule), h('div', {class: 'muted'}, finding.whatTheAppDid))));
}

// MARK: The page

function findingCard(project, finding) {
  const evidence = finding.requests.length
    ? h('span', {class: 'evidence'}, finding.requests.map((id, index) => [index ? ' ' : '',
      h('a', {href: entryURL(project, id), 'data-link': true, 'data-role': 'evidence', 'data-id': id, class: 'mono'}, `#${id}`)]))
    : '—';
  const seen = finding.firstSeen === finding.lastSeen ? fmtDateTime(finding.firstSeen) : `${fmtDateTime(finding.firstSeen)} … ${fmtDateTime(finding.lastSeen)}`;
  return h('article', {class: `card finding sev-${finding.severity}`, 'data-role': 'finding', 'data-rule': finding.rule,
    'data-severity': finding.severity, 'data-device': finding.device},
    h('div', {class: 'card-head'}, severityBadge(finding.severity), h('h3', {'data-role': 'finding-title'}, finding.title),
      h('span', {class: 'spacer'}), h('span', {class: 'mono muted'}, finding.rule)),
    h('div', {class: 'finding-meta'}, platformBadge(finding.platform), ' ', h('span', {class: 'mono'}, finding.device), ' · ',
      h('span', {'data-role': 'finding-count'}, finding.count === 1 ? 'once' : `${finding.count} times`), ' · ', h('span', {class: 'muted', title: `${finding.firstSeen} … ${finding.lastSeen} (project clock)`}, seen)),
    kvTable([
      ['What the app did', finding.whatTheAppDid],
      ['The SDK\'s rule', finding.ruleText],
      ['Requests', evidence],
      ['Guide', h('span', {class: 'mono', 'data-role': 'guide', title: 'The rule\'s section of the user guide: what it means and how to fix the app'}, guideSection(finding.rule))],
    ], {mono: false}));
}

function findingsView(project, findings) {
  if (!findings.length) {
    return empty('No findings: every SDK request of this project so far follows its SDK\'s documented rules. A broken rule shows here with the requests that show it.');
  }
  const ordered = findings.map((finding, index) => [finding, index]).sort(([a, i], [b, j]) => rank(a.severity) - rank(b.severity) || i - j);
  return [h('p', {class: 'muted', 'data-role': 'findings-summary'}, `${plural(findings.length, 'finding')}: ${counts(findings)} (most recently seen first).`),
    SEVERITIES.filter((severity) => findings.some((finding) => finding.severity === severity)).map((severity) => h('section', {'data-role': `findings-${severity}`},
      h('h2', null, `${HEADINGS[severity]} (${findings.filter((finding) => finding.severity === severity).length})`),
      ordered.filter(([finding]) => finding.severity === severity).map(([finding]) => findingCard(project, finding))))];
}

function rulesTable(rules, change) {
  const row = (rule) => {
    const toggle = h('input', {type: 'checkbox', 'data-role': 'rule-enabled', checked: rule.enabled, 'aria-label': `${rule.id} on`});
    toggle.addEventListener('change', () => change(rule, {enabled: toggle.checked ? null : false}, toggle));
    const severity = h('select', {'data-role': 'rule-severity', 'aria-label': `${rule.id} severity`},
      SEVERITIES.map((level) => h('option', {value: level, selected: level === rule.severity}, level === rule.defaultSeverity ? `${level} (default)` : level)));
    // The default is sent as null, which removes the override (RFC 7396), so the settings keep only what differs.
    severity.addEventListener('change', () => change(rule, {severity: severity.value === rule.defaultSeverity ? null : severity.value}, severity));
    return h('tr', {'data-role': 'rule', 'data-rule': rule.id, class: rule.enabled ? null : 'rule-off'},
      h('td', null, h('div', {class: 'mono'}, rule.id), h('div', {class: 'muted'}, rule.title)),
      h('td', null, rule.platform ? platformBadge(rule.platform) : h('span', {class: 'muted'}, 'every platform')),
      h('td', null, h('label', {class: 'check'}, toggle, rule.enabled ? ' on' : ' off')),
      h('td', null, severity));
  };
  return h('table', {class: 'data rules'}, h('thead', null, h('tr', null, ['Rule', 'Platform', 'Checked', 'Severity'].map((title) => h('th', null, title)))),
    h('tbody', {'data-role': 'rules'}, rules.map(row)));
}

export async function renderChecks({main, project, signal}) {
  const findingsBox = h('div', {'data-role': 'findings'});
  const rulesBox = h('div', {class: 'card flush'});
  let shown = '';

  async function loadFindings() {
    const {findings} = await api('GET', projectPath(project, '/findings'), undefined, {signal});
    showNavCount(findings);
    const text = JSON.stringify(findings);
    if (text === shown) return;
    shown = text;
    replace(findingsBox, findingsView(project, findings));
    // `…/checks#rule` (the journal's badges) scrolls to that rule's first finding.
    if (location.hash) findingsBox.querySelector(`[data-rule="${CSS.escape(decodeURIComponent(location.hash.slice(1)))}"]`)?.scrollIntoView({block: 'start'});
  }

  async function change(rule, setting, control) {
    control.disabled = true;
    try {
      const answer = await api('PATCH', projectPath(project, '/checks'), {rules: {[rule.id]: setting}}, {signal});
      replace(rulesBox, rulesTable(answer.rules, change));
      const now = answer.rules.find((candidate) => candidate.id === rule.id);
      toast(`${rule.id}: ${now.enabled ? 'on' : 'off'}, ${now.severity}.`);
      shown = '';
      await loadFindings(); // a new severity regroups the findings
    } catch (error) {
      if (!signal.aborted) toast(error.message, 'error');
      control.disabled = false;
    }
  }

  replace(main,
    h('div', {class: 'page-head row'}, h('h1', null, 'Checks'), h('span', {class: 'spacer'}),
      confirmButton('Clear findings', 'Click again to clear', async () => {
        await api('DELETE', projectPath(project, '/findings'), undefined, {signal});
        toast('Findings cleared; the rules also forgot the earlier requests.');
        await loadFindings();
      }, {className: 'secondary'})),
    h('p', {class: 'muted page-intro'}, 'Every SDK request this project answers is checked against the rules the SDK\'s own documentation sets for apps. ',
      'A finding is one rule broken on one device, with the requests that show it; docs/checks.md has a section per rule with what it means and how to fix the app.'),
    findingsBox,
    h('h2', {class: 'section-heading'}, 'Rules'),
    h('p', {class: 'muted'}, 'A rule turned off stops looking at requests (turned on again, it starts from nothing); a severity raised to error makes ',
      h('code', null, 'understudy findings'), ' exit 1 on it, for CI.'),
    rulesBox);

  const [rules] = await Promise.all([api('GET', projectPath(project, '/checks'), undefined, {signal}), loadFindings()]);
  replace(rulesBox, rulesTable(rules.rules, change));

  // Findings arrive with requests; reads are not journalled, so a light poll costs nothing.
  (async () => {
    while (!signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, REFRESH_MS));
      if (signal.aborted) return;
      try {
        await loadFindings();
      } catch (error) {
        if (signal.aborted) return;
        shown = '';
        replace(findingsBox, errorBox(error));
      }
    }
  })();
}
