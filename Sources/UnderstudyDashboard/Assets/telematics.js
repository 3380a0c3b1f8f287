// Telematics: users, vehicles with their kilometre history, trips drawn from their samples
// (coloured by speed, harsh events marked), and periods on a time axis.

import {api, errorBox, projectPath} from './api.js';
import {empty, fmtDateTime, fmtDuration, fmtNumber, h, replace, reveal, s, section, table} from './dom.js';
import {lineChart, timeAxis} from './charts.js';
import {tokenMinter} from './telematicsTokens.js';

const EVENT_SHAPES = {
  hardBraking: ['brake', 'Hard braking', 'B'], abruptAcceleration: ['accel', 'Abrupt acceleration', 'A'], hardCornering: ['corner', 'Hard cornering', 'C'],
  speeding: ['speeding', 'Speeding', 'S'], distraction: ['distraction', 'Distraction', 'D'],
};

function eventKind(type) {
  const key = Object.keys(EVENT_SHAPES).find((prefix) => type.startsWith(prefix));
  return key ? EVENT_SHAPES[key] : ['other', type, '?'];
}

function haversineKm(a, b) {
  const rad = Math.PI / 180, dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad;
  const x = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 12742 * Math.asin(Math.sqrt(x));
}

/** Each sample's speed: the reported one, else derived from the distance to the previous sample. */
export function sampleSpeeds(samples) {
  return samples.map((sample, index) => {
    if (Number.isFinite(sample.speedKmh)) return sample.speedKmh;
    const other = samples[index === 0 ? 1 : index - 1];
    if (!other) return 0;
    const hours = Math.abs(sample.timestampMs - other.timestampMs) / 3600000;
    return hours > 0 ? haversineKm(sample, other) / hours : 0;
  });
}

export function speedColor(kmh) {
  const clamped = Math.max(0, Math.min(130, kmh));
  return `hsl(${Math.round(130 - clamped / 130 * 130)}, 72%, 40%)`;
}

/** The route as an SVG: one `polyline.trip-route` point per sample, speed-coloured segments on top, events marked. */
export function tripMap(trip) {
  const samples = trip.samples ?? [];
  const width = 880, height = 440, padding = 28;
  const svg = s('svg', {class: 'chart trip-map', viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-role': 'trip-map', 'data-samples': samples.length,
    'aria-label': `Trip ${trip.id}: ${samples.length} samples`});
  if (samples.length < 2) {
    svg.append(s('text', {x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'muted'}, 'This trip has no samples (seeded from summary numbers).'));
    return svg;
  }
  const lats = samples.map((p) => p.latitude), lons = samples.map((p) => p.longitude);
  const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
  const k = Math.cos(midLat * Math.PI / 180);
  const xs = lons.map((lon) => lon * k), ys = lats;
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(x1 - x0, y1 - y0, 1e-6);
  const scale = Math.min((width - 2 * padding) / Math.max(x1 - x0, span * 0.05), (height - 2 * padding) / Math.max(y1 - y0, span * 0.05));
  const ox = (width - (x1 - x0) * scale) / 2, oy = (height - (y1 - y0) * scale) / 2;
  const project = (lat, lon) => [ox + (lon * k - x0) * scale, height - (oy + (lat - y0) * scale)];
  const points = samples.map((p) => project(p.latitude, p.longitude));
  const speeds = sampleSpeeds(samples);
  svg.append(s('rect', {class: 'map-bg', x: 0, y: 0, width, height, rx: 8}),
    s('polyline', {class: 'trip-route', points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}));
  const segments = s('g', {class: 'speed-segments'});
  for (let i = 1; i < points.length; i += 1) {
    const speed = (speeds[i - 1] + speeds[i]) / 2;
    segments.append(s('line', {class: 'speed-segment', x1: points[i - 1][0].toFixed(1), y1: points[i - 1][1].toFixed(1), x2: points[i][0].toFixed(1), y2: points[i][1].toFixed(1), stroke: speedColor(speed)}));
  }
  svg.append(segments);
  const nearest = (ms) => samples.reduce((best, p, i) => (Math.abs(p.timestampMs - ms) < Math.abs(samples[best].timestampMs - ms) ? i : best), 0);
  const marks = s('g', {class: 'events'});
  for (const event of trip.events ?? []) {
    const at = Number.isFinite(event.latitude) && Number.isFinite(event.longitude) ? project(event.latitude, event.longitude) : points[nearest(event.timestampMs)];
    const [cls, label, letter] = eventKind(event.type);
    marks.append(s('g', {class: `event-mark event-${cls}`, 'data-type': event.type, transform: `translate(${at[0].toFixed(1)},${at[1].toFixed(1)})`},
      s('circle', {r: 9}), s('text', {y: 4, 'text-anchor': 'middle'}, letter),
      s('title', null, `${label} (${event.type}, ${event.source}) at ${event.timestamp}${event.value !== null && event.value !== undefined ? ' · value ' + event.value : ''}`)));
  }
  for (const event of trip.attentionEvents ?? []) {
    const at = points[nearest(event.startTimestampMs)];
    marks.append(s('g', {class: 'event-mark event-attention', transform: `translate(${at[0].toFixed(1)},${at[1].toFixed(1)})`},
      s('rect', {x: -7, y: -7, width: 14, height: 14, rx: 3}), s('title', null, `Attention: ${event.type} ${event.startDate} → ${event.endDate}`)));
  }
  const [sx, sy] = points[0], [ex, ey] = points[points.length - 1];
  svg.append(marks,
    s('g', {class: 'endpoint start', transform: `translate(${sx.toFixed(1)},${sy.toFixed(1)})`}, s('circle', {r: 7}), s('title', null, `Start ${trip.startedAt}`)),
    s('g', {class: 'endpoint end', transform: `translate(${ex.toFixed(1)},${ey.toFixed(1)})`}, s('rect', {x: -6, y: -6, width: 12, height: 12}), s('title', null, `End ${trip.endedAt}`)));
  return svg;
}

function speedLegend() {
  return h('div', {class: 'legend-row'}, h('span', {class: 'muted'}, 'Speed'),
    [0, 30, 50, 80, 100, 130].map((kmh) => h('span', {class: 'legend-item'}, s('svg', {width: 18, height: 8, class: 'inline'}, s('rect', {width: 18, height: 8, rx: 2, fill: speedColor(kmh)})), `${kmh}${kmh === 130 ? '+' : ''}`)),
    h('span', {class: 'muted'}, 'km/h'),
    Object.values(EVENT_SHAPES).map(([cls, label, letter]) => h('span', {class: `legend-item event-key event-${cls}`}, h('span', {class: 'event-chip'}, letter), label)));
}

function tripDetail(trip) {
  const speeds = sampleSpeeds(trip.samples ?? []);
  const limits = (trip.samples ?? []).filter((p) => Number.isFinite(p.speedLimitKmh));
  const counts = [['Hard braking', trip.hardBrakingCount], ['Abrupt acceleration', trip.abruptAccelerationCount], ['Hard cornering', trip.hardCorneringCount],
    ['Speeding', trip.speedingCount], ['Distraction', trip.distractionCount], ['Manual events', trip.manualEventCount]];
  return h('section', {class: 'card', 'data-role': 'trip-detail', 'data-trip': trip.id},
    h('h2', null, `Trip ${trip.id}`, h('span', {class: 'muted'}, ` · user ${trip.userId} · ${fmtDateTime(trip.startedAt)} → ${fmtDateTime(trip.endedAt)}`)),
    h('div', {class: 'stats'}, [['Distance', `${fmtNumber(trip.distanceKm, 2)} km`], ['Duration', fmtDuration(trip.durationSec)],
      ['Average', `${fmtNumber(trip.avgSpeedKmh)} km/h`], ['Max', `${fmtNumber(trip.maxSpeedKmh)} km/h`], ['Score', String(trip.score)],
      ['Samples', String((trip.samples ?? []).length)]].map(([label, value]) => h('div', {class: 'stat'}, h('span', {class: 'stat-label'}, label), h('strong', null, value)))),
    tripMap(trip), speedLegend(),
    h('h3', null, 'Speed over time'),
    lineChart([{name: 'speed', points: (trip.samples ?? []).map((p, i) => [p.timestampMs, speeds[i]]), cls: 'series-speed'},
      ...(limits.length ? [{name: 'limit', points: limits.map((p) => [p.timestampMs, p.speedLimitKmh]), cls: 'series-limit'}] : [])],
    {time: true, height: 180, yLabel: 'km/h', role: 'speed-chart', zero: true}),
    h('h3', null, 'Harsh events'),
    h('div', {class: 'chips'}, counts.map(([label, count]) => h('span', {class: `chip ${count ? 'chip-warn' : ''}`}, `${label}: ${count ?? 0}`))),
    (trip.events ?? []).length ? table([['Time', (e) => fmtDateTime(e.timestamp)], ['Type', (e) => e.type], ['Source', (e) => e.source], ['Value', (e) => fmtNumber(e.value), 'num']], trip.events) : null);
}

function periodsTimeline(periods) {
  const width = 960, height = 90, left = 20, right = width - 20;
  const svg = s('svg', {class: 'chart periods', viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-role': 'periods-timeline', 'aria-label': 'Telematics periods'});
  const spans = periods.map((p) => [Date.parse(p.startedAt), Date.parse(p.endedAt ?? p.startedAt), p]).filter(([a]) => Number.isFinite(a));
  if (!spans.length) return svg;
  let min = Math.min(...spans.map(([a]) => a)), max = Math.max(...spans.map(([, b]) => (Number.isFinite(b) ? b : min)));
  if (max <= min) max = min + 3600000;
  const sx = (t) => left + (t - min) / (max - min) * (right - left);
  for (const [a, b, p] of spans) {
    svg.append(s('rect', {class: `period ${p.isProcessed ? 'processed' : 'open'}`, x: sx(a), y: 18, width: Math.max(3, sx(Number.isFinite(b) ? b : a) - sx(a)), height: 26, rx: 3},
      s('title', null, `Period ${p.id} · user ${p.userId} · ${p.isProcessed ? 'processed' : 'open'} · ${p.tripCount} trips · ${fmtNumber(p.distanceKm, 2)} km`)));
  }
  svg.append(timeAxis(left, right, 58, min, max, sx));
  return svg;
}

export async function renderTelematics({main, project, params, signal, setParams}) {
  const base = projectPath(project, '/telematics');
  const get = (path) => api('GET', base + path, undefined, {signal});
  const [userList, {vehicles}, {trips}, {periods}] = await Promise.all([get('/users'), get('/vehicles'), get('/trips'), get('/periods')]);
  let users = userList.users;
  const tripBox = h('div', {'data-role': 'trip-box'});
  const kmBox = h('div', {'data-role': 'kilometres-box'});
  let selectedTrip = params.get('trip') ? Number(params.get('trip')) : null;
  let selectedVehicle = params.get('vehicle') ? Number(params.get('vehicle')) : null;

  const tripTable = h('div');
  const drawTrips = () => replace(tripTable, trips.length ? table([
    ['Trip', (t) => `#${t.id}`, 'mono'], ['User', (t) => String(t.userId)], ['Started', (t) => fmtDateTime(t.startedAt), 'nowrap'],
    ['Distance', (t) => `${fmtNumber(t.distanceKm, 2)} km`, 'num'], ['Duration', (t) => fmtDuration(t.durationSec), 'num'],
    ['Avg / max', (t) => `${fmtNumber(t.avgSpeedKmh)} / ${fmtNumber(t.maxSpeedKmh)} km/h`, 'num'], ['Score', (t) => String(t.score), 'num'],
    ['Harsh', (t) => String(t.hardBrakingCount + t.abruptAccelerationCount + t.hardCorneringCount + t.speedingCount), 'num'],
  ], trips, {onRowClick: (t) => showTrip(t.id), selected: (t) => t.id === selectedTrip}) : empty('No trips yet: upload telemetry or seed one with POST …/telematics/trips.'));

  const vehicleTable = h('div');
  const drawVehicles = () => replace(vehicleTable, vehicles.length ? table([
    ['Id', (v) => String(v.id), 'mono'], ['Plate', (v) => v.plate, 'mono'], ['Internal', (v) => v.internalPlate ?? '—'],
    ['Type', (v) => v.typeName ?? String(v.type)], ['Fuel', (v) => v.fuelTypeName ?? String(v.fuelType)],
    ['Last km', (v) => (v.lastReportedKilometers === null ? '—' : fmtNumber(v.lastReportedKilometers)), 'num'], ['Reported', (v) => fmtDateTime(v.lastReportedAt)],
  ], vehicles, {onRowClick: (v) => showVehicle(v.id), selected: (v) => v.id === selectedVehicle}) : empty('No vehicles.'));

  async function showTrip(id) {
    selectedTrip = id;
    setParams({trip: id});
    drawTrips();
    if (id === null) { replace(tripBox); return; }
    replace(tripBox, h('p', {class: 'muted'}, 'Loading trip…'));
    try { replace(tripBox, tripDetail(await get(`/trips/${id}`))); } catch (error) { replace(tripBox, errorBox(error)); }
    reveal(tripBox);
  }

  async function showVehicle(id) {
    selectedVehicle = id;
    setParams({vehicle: id});
    drawVehicles();
    if (id === null) { replace(kmBox); return; }
    try {
      const {reports} = await get(`/vehicles/${id}/kilometers`);
      const ordered = reports.slice().sort((a, b) => Date.parse(a.readAt) - Date.parse(b.readAt));
      replace(kmBox, h('h3', null, `Kilometre history of vehicle ${id}`),
        lineChart([{name: 'odometer', points: ordered.map((r) => [Date.parse(r.readAt), r.kilometers]), cls: 'series-km'}], {time: true, height: 180, yLabel: 'km', role: 'kilometres-chart', dots: true}),
        ordered.length ? table([['Read at', (r) => fmtDateTime(r.readAt)], ['Kilometres', (r) => fmtNumber(r.kilometers), 'num'], ['Observations', (r) => r.observations ?? '—'],
          ['Corrected', (r) => (r.corrected ? 'yes' : '')]], ordered.slice().reverse()) : empty('No kilometre reports.'));
    } catch (error) { replace(kmBox, errorBox(error)); }
  }

  const usersBox = h('div', {'data-role': 'telematics-users'});
  const drawUsers = () => replace(usersBox, users.length ? table([
    ['User', (u) => String(u.userId), 'mono'], ['Name', (u) => u.userName], ['State', (u) => h('span', {class: `badge ${u.state === 'ACTIVE' ? 'ok' : 'warn'}`}, u.state)],
    ['Current vehicle', (u) => (u.currentVehicleId === null ? '—' : String(u.currentVehicleId))], ['Disabled features', (u) => u.disabledFeatures.join(', ') || '—'],
    ['Created', (u) => fmtDateTime(u.createdAt)],
  ], users) : empty('No users.'));

  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Telematics'),
    h('p', {class: 'muted'}, `${users.length} users · ${vehicles.length} vehicles · ${trips.length} trips · ${periods.length} periods`)),
  section('Tokens for the SDK', tokenMinter(base, users, async () => { ({users} = await get('/users')); drawUsers(); })),
  section('Trips', tripTable, tripBox),
  section('Vehicles', vehicleTable, kmBox),
  section('Periods', periodsTimeline(periods), periods.length ? table([
    ['Period', (p) => `#${p.id}`, 'mono'], ['User', (p) => String(p.userId)], ['Started', (p) => fmtDateTime(p.startedAt)], ['Ended', (p) => fmtDateTime(p.endedAt)],
    ['State', (p) => h('span', {class: `badge ${p.isProcessed ? 'ok' : 'warn'}`}, p.isProcessed ? 'processed' : 'open')], ['Samples', (p) => String(p.sampleCount), 'num'],
    ['Trips', (p) => String(p.tripCount), 'num'], ['Distance', (p) => `${fmtNumber(p.distanceKm, 2)} km`, 'num'],
  ], periods) : empty('No periods.')),
  section('Users', usersBox));
  drawUsers();
  drawTrips();
  drawVehicles();
  if (selectedTrip !== null) showTrip(selectedTrip);
  if (selectedVehicle !== null) showVehicle(selectedVehicle);
}
