// The control plane, from the browser. The admin token (when the server wants one) is asked for
// once, kept in sessionStorage for this tab, and sent as X-Understudy-Admin-Token.

import {h} from './dom.js';

const TOKEN_KEY = 'understudy.adminToken';

/** A refusal from the control plane, with its own code and message. */
export class APIError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function storedToken() {
  try { return sessionStorage.getItem(TOKEN_KEY); } catch { return null; }
}

export function forgetToken() {
  try { sessionStorage.removeItem(TOKEN_KEY); } catch { /* storage disabled */ }
  tokenListeners.forEach((listener) => listener());
}

const tokenListeners = new Set();
export function onTokenChange(listener) { tokenListeners.add(listener); }

let pendingPrompt = null;

/** Shows the token dialog once for any number of concurrent 401s; resolves when a token is entered. */
function askForToken(refused) {
  if (pendingPrompt) return pendingPrompt;
  pendingPrompt = new Promise((resolve) => {
    const input = h('input', {type: 'password', name: 'token', autocomplete: 'off', required: true, 'aria-label': 'Admin token', placeholder: 'admin token'});
    const message = refused
      ? h('p', {class: 'error-text', 'data-role': 'token-refused'}, 'The server refused that token (401 unauthorized). Check the value given with --admin-token or UNDERSTUDY_ADMIN_TOKEN and try again.')
      : h('p', null, 'This Understudy needs its admin token for the control plane. It is kept for this browser tab only.');
    const form = h('form', {method: 'dialog', class: 'token-form'},
      h('h2', null, 'Admin token'), message, input,
      h('div', {class: 'dialog-actions'}, h('button', {type: 'submit', class: 'primary'}, 'Use token')));
    const dialog = h('dialog', {class: 'token-dialog', 'data-role': 'token-dialog'}, form);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const value = input.value.trim();
      if (!value) return;
      try { sessionStorage.setItem(TOKEN_KEY, value); } catch { /* storage disabled: lives until reload */ }
      memoryToken = value;
      dialog.close();
      dialog.remove();
      pendingPrompt = null;
      tokenListeners.forEach((listener) => listener());
      resolve();
    });
    dialog.addEventListener('cancel', (event) => event.preventDefault());
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
  return pendingPrompt;
}

let memoryToken = null;

/** One request with the admin token; a 401 asks for the token (again) and retries. */
async function send(method, path, body, signal) {
  for (;;) {
    const token = storedToken() ?? memoryToken;
    const headers = {Accept: 'application/json'};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers['X-Understudy-Admin-Token'] = token;
    const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store'});
    if (response.status !== 401) return response;
    forgetToken();
    memoryToken = null;
    await askForToken(Boolean(token));
  }
}

/** `{text, json}` of an answer, or the server's refusal as `APIError`. */
async function read(response) {
  const text = await response.text();
  let json = null;
  if (text) {
    try { json = JSON.parse(text); } catch { json = null; }
  }
  if (!response.ok) {
    const error = json && json.error ? json.error : {};
    throw new APIError(response.status, error.code ?? `http_${response.status}`,
      error.message ?? (text ? text.slice(0, 300) : `${response.status} ${response.statusText}`), error.details);
  }
  return {text, json};
}

/**
 * Calls the control plane. JSON in, JSON out; a non-2xx answer throws `APIError` with the
 * server's message. `signal` aborts (long polls are aborted when the page changes).
 */
export async function api(method, path, body = undefined, {signal} = {}) {
  return (await read(await send(method, path, body, signal))).json;
}

/** A GET's answer as text (a file to download, such as the journal's HAR), with the admin token. */
export async function apiText(path, {signal} = {}) {
  return (await read(await send('GET', path, undefined, signal))).text;
}

/** `?a=1&b=2` from an object, skipping empty values. */
export function query(params) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const projectPath = (id, rest = '') => `/__admin/projects/${encodeURIComponent(id)}${rest}`;

/** A visible explanation of a failure (nothing for an aborted request). */
export function errorBox(error) {
  if (error && error.name === 'AbortError') return document.createTextNode('');
  const message = error instanceof APIError ? `${error.message} (${error.status} ${error.code})` : String(error && error.message ? error.message : error);
  return h('div', {class: 'error-box', role: 'alert'}, h('strong', null, 'Something went wrong. '), message);
}
