// DOM building blocks. Every string that reaches the page goes through a text node or an
// attribute value: nothing here (or anywhere in the dashboard) parses strings as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

function appendChildren(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function applyProps(el, props) {
  if (!props) return;
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'text') el.textContent = String(value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'value' && 'value' in el) el.value = String(value);
    else if (key === 'checked' || key === 'selected' || key === 'disabled') el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
}

/** An HTML element: `h('td', {class: 'num'}, 'text', childNode, [more])`. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  applyProps(el, props);
  return appendChildren(el, children);
}

/** An SVG element. */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  applyProps(el, props);
  return appendChildren(el, children);
}

/** Replaces the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  return appendChildren(el, children);
}

/** Only http(s) URLs become links; anything else (javascript:, data:) stays text. */
export function safeHref(url) {
  try {
    const parsed = new URL(String(url), location.origin);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Whether `text` is a whole http(s) URL (a path or a file name is not, though `safeHref` would resolve it). */
export function isHTTPURL(text) {
  return typeof text === 'string' && /^https?:\/\//i.test(text) && safeHref(text) !== null;
}

/**
 * Scrolls `el` into view unless it is already on screen: a detail drawn under a long list would
 * otherwise open below the fold, and the click that opened it would look dead.
 */
export function reveal(el) {
  const rect = el.getBoundingClientRect();
  const top = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
  if (rect.top >= top && rect.top < innerHeight - 120) return;
  el.scrollIntoView({block: 'start', behavior: 'smooth'});
}

/** A link that the router handles without a reload. */
export function link(href, ...children) {
  return h('a', {href, 'data-link': true}, ...children);
}

// MARK: Formatting

const pad = (n, width = 2) => String(n).padStart(width, '0');

export function fmtTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso ?? '');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

export function fmtDateTime(iso) {
  if (iso === null || iso === undefined || iso === '') return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function fmtUTC(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso ?? '');
  return date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function fmtDuration(seconds) {
  if (seconds === null || seconds === undefined || Number.isNaN(Number(seconds))) return '—';
  let rest = Math.round(Math.abs(Number(seconds)));
  const sign = Number(seconds) < 0 ? '−' : '';
  const days = Math.floor(rest / 86400); rest -= days * 86400;
  const hours = Math.floor(rest / 3600); rest -= hours * 3600;
  const minutes = Math.floor(rest / 60); const secs = rest - minutes * 60;
  if (days) return `${sign}${days} d ${hours} h`;
  if (hours) return `${sign}${hours} h ${minutes} min`;
  if (minutes) return `${sign}${minutes} min ${secs ? secs + ' s' : ''}`.trim();
  return `${sign}${secs} s`;
}

export function fmtMs(ms) {
  const n = Number(ms);
  if (Number.isNaN(n)) return '—';
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
}

export function fmtBytes(bytes) {
  const n = Number(bytes) || 0;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function fmtNumber(value, digits = 1) {
  const n = Number(value);
  if (value === null || value === undefined || Number.isNaN(n)) return '—';
  return Number.isInteger(n) ? String(n) : n.toFixed(digits);
}

/** `{text, json}`: a body pretty-printed when it is JSON, decoded note when it is base64. */
export function prettyBody(body) {
  if (body === null || body === undefined) return {text: '', kind: 'empty'};
  if (body.startsWith('base64:')) return {text: body.slice(7), kind: 'base64'};
  try {
    return {text: JSON.stringify(JSON.parse(body), null, 2), kind: 'json'};
  } catch {
    return {text: body, kind: 'text'};
  }
}

// MARK: Small widgets

export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = h('textarea', {class: 'offscreen', readonly: true});
  area.value = text;
  document.body.append(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function copyButton(text, label = 'Copy') {
  const button = h('button', {type: 'button', class: 'copy', title: 'Copy to the clipboard'}, label);
  button.addEventListener('click', async () => {
    try {
      await copyText(String(text));
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => { button.textContent = label; }, 1200);
  });
  return button;
}

/** A two-column table of name → value, values in monospace, each with a copy button if asked. */
export function kvTable(pairs, {copy = false, mono = true} = {}) {
  return h('table', {class: 'kv'}, h('tbody', null, pairs.map(([name, value]) => h('tr', null,
    h('th', {scope: 'row'}, name),
    h('td', {class: mono ? 'mono wrap' : 'wrap'}, value instanceof Node ? value : String(value ?? '—')),
    copy ? h('td', {class: 'copy-cell'}, value === null || value === undefined ? null : copyButton(value instanceof Node ? value.textContent : value)) : null,
  ))));
}

export function statusClass(status) {
  const n = Number(status);
  if (n === 0) return 's0';
  return `s${Math.floor(n / 100)}`;
}

export function statusChip(status) {
  return h('span', {class: `status ${statusClass(status)}`, title: Number(status) === 0 ? 'No response was sent' : null},
    Number(status) === 0 ? 'none' : String(status));
}

export function platformBadge(platform) {
  return h('span', {class: `platform p-${platform}`}, platform);
}

export function toast(message, kind = 'info') {
  const box = document.getElementById('toasts');
  const item = h('div', {class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status'}, message);
  box.append(item);
  setTimeout(() => item.remove(), kind === 'error' ? 7000 : 3000);
}

export function empty(text) {
  return h('p', {class: 'empty'}, text);
}

export function section(title, ...children) {
  return h('section', {class: 'card'}, h('h2', null, title), ...children);
}

/** A simple data table: `columns` are `[heading, row => cell, className?]`. */
export function table(columns, rows, {onRowClick = null, rowClass = null, selected = null} = {}) {
  return h('table', {class: 'data'},
    h('thead', null, h('tr', null, columns.map(([heading, , cls]) => h('th', {class: cls && cls.split(' ').includes('num') ? 'num' : null}, heading)))),
    h('tbody', null, rows.map((row) => {
      const tr = h('tr', {class: [onRowClick ? 'clickable' : '', rowClass ? rowClass(row) : '', selected && selected(row) ? 'selected' : ''].join(' ').trim() || null},
        columns.map(([, cell, cls]) => h('td', {class: cls ?? null}, cell(row))));
      if (onRowClick) {
        tr.tabIndex = 0;
        tr.addEventListener('click', () => onRowClick(row));
        tr.addEventListener('keydown', (event) => { if (event.key === 'Enter') onRowClick(row); });
      }
      return tr;
    })));
}

/** A button that needs a second click within three seconds (for delete, reset, restore). */
export function confirmButton(label, confirmLabel, action, {className = 'danger'} = {}) {
  const button = h('button', {type: 'button', class: className}, label);
  let armed = null;
  button.addEventListener('click', async () => {
    if (!armed) {
      button.textContent = confirmLabel;
      button.classList.add('armed');
      armed = setTimeout(() => { armed = null; button.textContent = label; button.classList.remove('armed'); }, 3000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    button.disabled = true;
    try { await action(); } finally {
      button.disabled = false;
      button.textContent = label;
      button.classList.remove('armed');
    }
  });
  return button;
}

/** A labelled form field. */
export function field(label, control, hint = null) {
  return h('label', {class: 'field'}, h('span', {class: 'field-label'}, label), control, hint ? h('span', {class: 'hint'}, hint) : null);
}

/** Shows a message under a form; `kind` is error or ok. */
export function formMessage(box, text, kind = 'error') {
  replace(box, text ? h('span', {class: kind === 'error' ? 'error-text' : 'ok-text', role: kind === 'error' ? 'alert' : 'status'}, text) : null);
}
