// "Copy as cURL": a journal entry as a shell command that sends the same request to this server.
// What the journal keeps decides the details: secret headers are redacted (the command says
// which to fill in), request bodies are stored decompressed (so Content-Encoding is dropped), a
// body that is not UTF-8 is base64 (rebuilt with `base64 --decode` and piped to curl), and a
// body past the capture cap is cut (the command says so).

import {base64Of, bodyBytes} from './bodies.js';

/** `text` as one single-quoted shell word. */
export function shellQuote(text) {
  return `'${String(text).replace(/'/g, `'\\''`)}'`;
}

// Set by curl itself from the URL and the body, or meaningful only on the hop they came on.
const DROPPED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'proxy-connection', 'expect', 'te', 'upgrade']);

const hostName = (authority) => authority.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
const portOf = (authority) => (/:(\d+)$/.exec(authority) ?? [])[1] ?? null;

function knownHosts(project, platform) {
  return project?.connections?.[platform]?.realHosts ?? [];
}

function httpsPort(project) {
  for (const url of Object.values(project?.httpsBaseURLs ?? {})) {
    try { return new URL(url).port || '443'; } catch { /* not a URL: no HTTPS port known */ }
  }
  return null;
}

/** The CA file a client trusts this server's HTTPS with, when the project answer names one. */
function caFile(project) {
  if (project?.proxy?.caCertificatePath) return project.proxy.caCertificatePath;
  for (const connection of Object.values(project?.connections ?? {})) if (connection?.caCertificate) return connection.caCertificate;
  return null;
}

/**
 * Where the client sent the request: `{url, proxy, https}`. The journal's path is the routed one,
 * which for a platform's real host name (through the proxy, or a name resolved to this server) has
 * the platform's prefix in front of what the client sent; the host is the one the client named.
 */
export function requestTarget(entry, project, fallbackHost = location.host) {
  const headers = entry.requestHeaders ?? {};
  const authority = entry.proxyHost ?? headers.host ?? fallbackHost;
  const prefix = `/${entry.platform}`;
  const emulated = !['admin', 'proxy'].includes(entry.platform);
  const hostRouted = emulated && (entry.proxyHost ? true : knownHosts(project, entry.platform).includes(hostName(authority)))
    && (entry.path === prefix || entry.path.startsWith(prefix + '/'));
  const path = hostRouted ? entry.path.slice(prefix.length) || '/' : entry.path;
  // Through the proxy the journal does not say whether the client tunnelled (TLS) or sent an
  // absolute http:// URL; SDKs use their real https base URLs, so HTTPS (as the HAR export says).
  // Directly, the port tells the TLS listener from the plain one.
  const https = entry.proxyHost ? true : portOf(authority) !== null && portOf(authority) === httpsPort(project);
  const url = `${https ? 'https' : 'http'}://${authority}${path}${entry.query ? `?${entry.query}` : ''}`;
  return {url, https, proxy: entry.proxyHost ? project?.proxy?.address ?? null : null};
}

const printable = (text) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);

/**
 * The command: comment lines saying what the user must fill in or know, then `curl` with the
 * method, URL, headers and body, one option a line.
 */
export function curlCommand(entry, project = null, fallbackHost = location.host) {
  const notes = [];
  const target = requestTarget(entry, project, fallbackHost);
  const options = [shellQuote(target.url)];
  if (target.proxy) options.push(`--proxy ${shellQuote(`http://${target.proxy}`)}`);
  else if (entry.proxyHost) notes.push('# Sent through Understudy\'s proxy: add --proxy http://HOST:PORT (the project overview lists it).');
  if (target.https) {
    const ca = caFile(project);
    if (ca) options.push(`--cacert ${shellQuote(ca)}`);
    else notes.push('# HTTPS from Understudy\'s local CA: add --cacert with the file `understudy ca path` prints.');
  }

  const body = entry.requestBody ?? null;
  const method = entry.method;
  if (method === 'HEAD') options.push('--head');
  else if (!(method === 'GET' && !body) && !(method === 'POST' && body)) options.push(`-X ${method}`);

  const redacted = [];
  let compressed = false;
  for (const [name, value] of Object.entries(entry.requestHeaders ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    if (DROPPED.has(name)) continue;
    if (name === 'accept-encoding') { compressed = /gzip|deflate|br|zstd/i.test(value); continue; }
    if (name === 'content-encoding' && body && /gzip|deflate/i.test(value)) {
      notes.push(`# The client sent the body ${value}-encoded; the journal keeps it decoded, and it is sent decoded here.`);
      continue;
    }
    if (value.includes('[redacted')) redacted.push(name);
    options.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  // curl asks for the encodings it can decode and decodes the answer, rather than print gzip.
  if (compressed) options.push('--compressed');
  if (redacted.length) {
    notes.unshift(`# The journal redacted ${redacted.join(', ')}: replace each [redacted …] with the real secret before running.`);
  }

  let pipe = null;
  if (body) {
    const bytes = bodyBytes(body);
    const text = body.startsWith('base64:') ? null : body;
    if (text !== null && printable(text)) {
      options.push(`--data-binary ${shellQuote(text)}`);
    } else {
      pipe = `printf %s ${shellQuote(base64Of(bytes))} | base64 --decode | `;
      options.push('--data-binary @-');
      notes.push(`# The body (${bytes.length} bytes) is ${text === null ? 'binary' : 'text with control characters'}: rebuilt from base64 and sent on standard input.`);
    }
    if (/\[redacted\]/.test(text ?? '')) notes.push('# The journal redacted password and secret fields in the body: fill them in.');
    if (entry.requestBodySize > bytes.length) {
      notes.push(`# The journal kept only the first ${bytes.length} of ${entry.requestBodySize} bytes of the body: what is sent here is cut.`);
    }
  }
  const command = `${pipe ?? ''}curl ${options.join(' \\\n  ')}`;
  return [...notes, command].join('\n');
}
