// WarrantyLife: vouchers with the action a lookup would get now, items with what their
// registration uploaded (sensor events, a chart of a readings batch, diagnostics), warranties
// with their coverage against the project clock, and users.

import {api, errorBox, projectPath, query} from './api.js';
import {empty, field, fmtDateTime, h, prettyBody, replace, reveal, section, table} from './dom.js';
import {lineChart, spanBar} from './charts.js';

const AXES = [['accelerationX', 'acc X'], ['accelerationY', 'acc Y'], ['accelerationZ', 'acc Z']];
const GYRO = [['gyroscopeX', 'gyro X'], ['gyroscopeY', 'gyro Y'], ['gyroscopeZ', 'gyro Z']];

function actionChip(result) {
  if (!result) return h('span', {class: 'muted'}, '—');
  if (result.error) return h('span', {class: 'chip chip-bad', 'data-role': 'voucher-action'}, `${result.status} ${result.error}`);
  return h('span', {class: `chip ${result.isError ? 'chip-bad' : 'chip-ok'}`, 'data-role': 'voucher-action'}, result.action);
}

/** The readings of one batch as lines over their index (acceleration, and gyroscope when present). */
function readingsChart(batch) {
  const readings = Array.isArray(batch.readings) ? batch.readings : [];
  const pick = (axes) => axes.filter(([key]) => readings.some((r) => Number.isFinite(r?.[key])))
    .map(([key, name], index) => ({name, cls: `series-${index}`, points: readings.map((r, i) => [i, Number(r?.[key])])}));
  const acceleration = pick(AXES), gyroscope = pick(GYRO);
  if (!acceleration.length && !gyroscope.length) {
    return h('div', null, h('p', {class: 'muted'}, 'These readings have no acceleration or gyroscope fields; the raw batch:'), h('pre', {class: 'body'}, prettyBody(JSON.stringify(readings)).text));
  }
  return h('div', {'data-role': 'readings-chart-box'},
    acceleration.length ? lineChart(acceleration, {height: 200, yLabel: 'm/s²', role: 'readings-chart'}) : null,
    gyroscope.length ? lineChart(gyroscope, {height: 160, yLabel: 'rad/s', role: 'gyroscope-chart'}) : null,
    h('p', {class: 'muted'}, `${readings.length} readings (x: reading index)${readings[0]?.readingAt ? `, from ${readings[0].readingAt} to ${readings[readings.length - 1].readingAt}` : ''}.`));
}

async function itemDetail(get, item) {
  const q = query({itemId: item.id});
  const [{sensorEvents}, {readings}, {diagnostics}, {images}, {audioClips}] = await Promise.all([
    get('/sensor-events' + q), get('/readings' + q), get('/diagnostics' + q), get('/images' + q), get('/audio-clips' + q)]);
  const chartBox = h('div', {'data-role': 'readings-box'});
  let chosen = readings.length ? readings[readings.length - 1].id : null;
  const drawReadings = () => {
    const batch = readings.find((r) => r.id === chosen);
    replace(chartBox, readings.length ? [table([
      ['Batch', (r) => r.id, 'mono'], ['Sensor event', (r) => r.sensorEventId, 'mono'], ['Readings', (r) => String(r.count), 'num'],
      ['gzip', (r) => (r.gzipped ? 'yes' : 'no')], ['Received', (r) => fmtDateTime(r.createdAt)],
    ], readings, {onRowClick: (r) => { chosen = r.id; drawReadings(); }, selected: (r) => r.id === chosen}), batch ? readingsChart(batch) : null] : empty('No readings uploaded.'));
  };
  drawReadings();
  return h('article', {class: 'card inset', 'data-role': 'item-detail', 'data-item': item.id},
    h('h3', null, `Item ${item.id}`, h('span', {class: 'muted'}, ` · ${item.deviceId} · ${item.model ?? ''}`)),
    h('h4', null, `Sensor events (${sensorEvents.length})`),
    sensorEvents.length ? table([
      ['Event', (e) => String(e.id), 'mono'], ['eventAt', (e) => e.eventAt ?? '—', 'mono'], ['Type', (e) => String(e.sensorEventType ?? '—')],
      ['Duplicate of', (e) => e.duplicateOf ?? '—', 'mono'], ['Received', (e) => fmtDateTime(e.createdAt)],
      ['Body', (e) => h('details', null, h('summary', null, 'show'), h('pre', {class: 'body'}, prettyBody(JSON.stringify(e.body)).text))],
    ], sensorEvents) : empty('No sensor events.'),
    h('h4', null, `Readings (${readings.length} batches)`), chartBox,
    h('h4', null, `Diagnostics (${diagnostics.length})`),
    diagnostics.length ? table([
      ['Report', (d) => String(d.id), 'mono'], ['Same hash as', (d) => d.sameHashAs ?? '—', 'mono'], ['Received', (d) => fmtDateTime(d.createdAt)],
      ['Body', (d) => h('details', null, h('summary', null, 'show'), h('pre', {class: 'body'}, prettyBody(JSON.stringify(d.body)).text))],
    ], diagnostics) : empty('No diagnostics.'),
    h('h4', null, `Images (${images.length}) and audio clips (${audioClips.length})`),
    images.length || audioClips.length ? table([
      ['Kind', (x) => x.kind ?? 'audio'], ['Id', (x) => x.id, 'mono'], ['Type', (x) => x.contentType ?? '—'], ['Bytes', (x) => String(x.bytes), 'num'],
      ['SHA-256', (x) => (x.sha256 ?? '').slice(0, 16), 'mono'], ['Duplicate', (x) => (x.duplicate ? 'yes' : '')],
    ], [...images, ...audioClips]) : empty('None.'));
}

export async function renderWarrantyLife({main, project, params, signal, setParams}) {
  const base = projectPath(project, '/warrantylife');
  const get = (path) => api('GET', base + path, undefined, {signal});
  const [{vouchers}, {items}, {warranties}, {users}, {voucherLookups}, clock] = await Promise.all([
    get('/vouchers'), get('/items'), get('/warranties'), get('/users'), get('/voucher-lookups'), api('GET', projectPath(project, '/clock'), undefined, {signal})]);
  let selectedItem = params.get('item');
  const voucherBox = h('div', {'data-role': 'vouchers'});
  const itemBox = h('div', {'data-role': 'item-box'});
  const itemTable = h('div');

  const device = h('input', {name: 'deviceId', placeholder: 'none', value: params.get('deviceId') ?? '', autocomplete: 'off'});
  const caller = h('select', {name: 'userId'}, h('option', {value: ''}, 'not logged in'),
    users.map((u) => h('option', {value: u.userId, selected: u.userId === params.get('userId')}, u.email)));
  const transfer = h('input', {type: 'checkbox', name: 'isPlanTransfer', checked: params.get('isPlanTransfer') === 'true'});
  const preview = h('form', {class: 'filters', 'data-role': 'voucher-preview'}, field('Caller', caller), field('Device id', device), h('label', {class: 'field compact check'}, transfer, ' isPlanTransfer'));

  async function drawVouchers() {
    const values = {deviceId: device.value.trim(), userId: caller.value, isPlanTransfer: transfer.checked ? 'true' : ''};
    setParams(values);
    let actions = [];
    try {
      ({voucherActions: actions} = await get('/voucher-actions' + query({...values, isPlanTransfer: transfer.checked ? 'true' : 'false'})));
    } catch (error) {
      replace(voucherBox, errorBox(error));
      return;
    }
    const byCode = new Map(actions.map((a) => [a.code, a]));
    replace(voucherBox, vouchers.length ? table([
      ['Code', (v) => h('strong', {class: 'mono'}, v.code)], ['Status', (v) => h('span', {class: 'badge'}, v.status)],
      ['Registration', (v) => v.registrationType ?? 'normalRegistration'], ['Expires', (v) => fmtDateTime(v.expiresAt)],
      ['Claimed by', (v) => v.claimedByUserId ?? '—', 'mono'], ['Original device', (v) => v.originalDeviceId ?? '—', 'mono wrap'],
      ['A lookup now gets', (v) => actionChip(byCode.get(v.code))],
    ], vouchers) : empty('No vouchers.'));
  }
  preview.addEventListener('change', drawVouchers);
  preview.addEventListener('submit', (event) => { event.preventDefault(); drawVouchers(); });

  const drawItems = () => replace(itemTable, items.length ? table([
    ['Item', (i) => i.id, 'mono'], ['Device', (i) => i.deviceId, 'mono wrap'], ['Model', (i) => i.model ?? '—'], ['Owner', (i) => i.userId, 'mono'],
    ['FCM token', (i) => (i.notificationToken ? 'yes' : '—')], ['Smart Saver', (i) => ['ssr', 'ssd', 'tradeIn'].filter((k) => i[k]).join(', ') || '—'],
    ['Created', (i) => fmtDateTime(i.createdAt), 'nowrap'],
  ], items, {onRowClick: (i) => showItem(i.id), selected: (i) => i.id === selectedItem}) : empty('No items.'));

  async function showItem(id) {
    selectedItem = id;
    setParams({item: id});
    drawItems();
    const item = items.find((candidate) => candidate.id === id);
    if (!item) { replace(itemBox, empty(`No item ${id}.`)); return; }
    replace(itemBox, h('p', {class: 'muted'}, 'Loading uploads…'));
    try { replace(itemBox, await itemDetail(get, item)); } catch (error) { replace(itemBox, errorBox(error)); }
    reveal(itemBox);
  }

  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'WarrantyLife'),
    h('p', {class: 'muted'}, `${vouchers.length} vouchers · ${items.length} items · ${warranties.length} warranties · ${users.length} users`)),
  section('Vouchers', h('p', {class: 'muted'}, 'The action column is what GET /vouchers/{code} would answer now for this caller and device (previewed; no lookup is recorded).'), preview, voucherBox),
  section('Items and their uploads', itemTable, itemBox),
  section('Warranties', warranties.length ? table([
    ['Warranty', (w) => w.id, 'mono'], ['Item / device', (w) => `${w.itemId ?? '—'} · ${w.deviceId ?? ''}`, 'mono wrap'], ['Plan', (w) => w.planName ?? '—'],
    ['Status', (w) => h('span', {class: `badge ${w.hasActiveCoverage ? 'ok' : 'warn'}`}, w.status)],
    ['Coverage', (w) => h('span', {class: 'coverage'}, spanBar(w.coverageStartDate, w.coverageEndDate, clock.now, {label: 'coverage'}),
      h('span', {class: 'muted'}, ` ${fmtDateTime(w.coverageStartDate).slice(0, 10)} → ${fmtDateTime(w.coverageEndDate).slice(0, 10)}`))],
    ['Voucher', (w) => w.voucherCode ?? '—', 'mono'],
  ], warranties) : empty('No warranties.')),
  section('Recorded voucher lookups', voucherLookups.length ? table([
    ['When', (l) => fmtDateTime(l.createdAt), 'nowrap'], ['Code', (l) => l.code, 'mono'], ['Device', (l) => l.deviceId ?? '—', 'mono'],
    ['User', (l) => l.userId ?? '—', 'mono'], ['Action', (l) => h('span', {class: 'chip'}, l.action)],
  ], voucherLookups.slice().reverse()) : empty('The SDK has not looked up a voucher yet.')),
  section('Users', users.length ? table([
    ['User', (u) => u.userId, 'mono'], ['E-mail', (u) => u.email], ['Activated', (u) => (u.activated ? 'yes' : 'no')], ['Created', (u) => fmtDateTime(u.createdAt)],
  ], users) : empty('No users.')));
  drawItems();
  await drawVouchers();
  if (selectedItem) showItem(selectedItem);
}
