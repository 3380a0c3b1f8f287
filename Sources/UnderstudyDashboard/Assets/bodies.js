// Journal bodies as bytes, and multipart/form-data bodies taken apart into their parts. The
// journal keeps a body as UTF-8 text, or as `base64:` and the bytes when they are not UTF-8 (an
// upload with a binary file part always is), cut at the capture cap.

import {empty, fmtBytes, h} from './dom.js';

/** The bytes of a journal body: text as UTF-8, a `base64:` body decoded. */
export function bodyBytes(body) {
  if (!body) return new Uint8Array(0);
  if (!body.startsWith('base64:')) return new TextEncoder().encode(body);
  const binary = atob(body.slice(7));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Base64 of `bytes` (for a shell command that rebuilds them). */
export function base64Of(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The boundary of a `multipart/…; boundary=…` content type, or null. */
export function multipartBoundary(contentType) {
  const match = /^\s*multipart\/[^;]+;(?:.*;)?\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match ? match[1] ?? match[2] : null;
}

function indexOf(bytes, needle, from) {
  outer: for (let i = from; i <= bytes.length - needle.length; i += 1) {
    for (let j = 0; j < needle.length; j += 1) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** `name="a"; filename="b.png"` → {name: 'a', filename: 'b.png'} (quoted or bare values). */
function dispositionParameters(value) {
  const parameters = {};
  for (const match of (value ?? '').matchAll(/;\s*([A-Za-z*]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    parameters[match[1].toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3].trim();
  }
  return parameters;
}

/**
 * The parts of a multipart body: `{name, filename, contentType, headers, bytes, complete}` each,
 * in order; `complete` is false for a part the capture cap cut. Null when the bytes do not start
 * like a multipart body with this boundary.
 */
export function parseMultipart(bytes, boundary) {
  const encoder = new TextEncoder();
  const delimiter = encoder.encode(`--${boundary}`);
  const next = encoder.encode(`\r\n--${boundary}`);
  let at = indexOf(bytes, delimiter, 0);
  if (at < 0) return null;
  const decoder = new TextDecoder();
  const parts = [];
  for (;;) {
    at += delimiter.length;
    if (bytes[at] === 0x2d && bytes[at + 1] === 0x2d) break; // the closing delimiter
    if (at >= bytes.length) break; // cut right after a delimiter
    while (bytes[at] === 0x20 || bytes[at] === 0x09) at += 1;
    if (bytes[at] === 0x0d && bytes[at + 1] === 0x0a) at += 2;
    const headerEnd = indexOf(bytes, encoder.encode('\r\n\r\n'), at);
    const headers = {};
    if (headerEnd < 0) {
      parts.push({name: null, filename: null, contentType: null, headers, bytes: new Uint8Array(0), complete: false});
      break;
    }
    for (const line of decoder.decode(bytes.subarray(at, headerEnd)).split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const disposition = dispositionParameters(headers['content-disposition']);
    const start = headerEnd + 4;
    const end = indexOf(bytes, next, start);
    parts.push({name: disposition.name ?? null, filename: disposition.filename ?? null, contentType: headers['content-type'] ?? null,
      headers, bytes: bytes.subarray(start, end < 0 ? bytes.length : end), complete: end >= 0});
    if (end < 0) break;
    at = end + 2;
  }
  return parts;
}

/** The part as text when it reads as text (UTF-8 without control characters), else null. */
export function partText(part) {
  const type = (part.contentType ?? '').toLowerCase();
  if (part.filename && type && !/^text\/|json|xml|x-www-form-urlencoded|csv/.test(type)) return null;
  let text;
  try { text = new TextDecoder('utf-8', {fatal: true}).decode(part.bytes); } catch { return null; }
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? null : text;
}

const hex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' ');

/** The parts of a multipart body as a list: name, filename, type and size, text parts as text. */
export function multipartView(parts, role) {
  if (!parts.length) return empty('The multipart body has no parts.');
  return h('div', {class: 'multipart', 'data-role': role}, parts.map((part, index) => {
    const text = partText(part);
    const facts = [part.filename !== null ? `file “${part.filename}”` : 'field', part.contentType ?? (part.filename !== null ? 'no content type' : 'text'),
      fmtBytes(part.bytes.length)];
    if (!part.complete) facts.push('cut by the journal’s capture limit');
    return h('div', {class: 'part', 'data-role': 'multipart-part', 'data-name': part.name ?? '', 'data-size': part.bytes.length},
      h('div', {class: 'part-head'}, h('strong', {class: 'mono'}, part.name ?? `part ${index + 1}`), h('span', {class: 'muted'}, facts.join(' · '))),
      text !== null
        ? (text ? h('pre', {class: 'body part-text', 'data-role': 'part-text'}, text) : h('p', {class: 'muted'}, 'Empty.'))
        : h('p', {class: 'muted mono', 'data-role': 'part-binary'}, `binary; first bytes: ${hex(part.bytes.subarray(0, 16))}${part.bytes.length > 16 ? ' …' : ''}`));
  }));
}
