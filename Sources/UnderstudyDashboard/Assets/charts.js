// SVG pictures shared by the platform pages: time axes, line charts, the hypnogram, the
// attribution timeline. Labels are text nodes; numbers are computed, never parsed from markup.

import {h, s} from './dom.js';

const STEPS = [1, 5, 15, 30, 60, 300, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 2592000].map((x) => x * 1000);

/** Tick instants (ms) between `min` and `max`, about `count` of them, on round boundaries. */
export function timeTicks(min, max, count = 6) {
  const span = Math.max(1, max - min);
  const step = STEPS.find((candidate) => span / candidate <= count) ?? STEPS[STEPS.length - 1];
  const ticks = [];
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) ticks.push(t);
  return {ticks, step};
}

export function timeLabel(ms, step, timeZone) {
  const options = step >= 86400000 ? {month: 'short', day: 'numeric'} : {hour: '2-digit', minute: '2-digit', hourCycle: 'h23'};
  if (step < 60000) options.second = '2-digit';
  try {
    return new Intl.DateTimeFormat('en-GB', {...options, timeZone: timeZone || undefined}).format(new Date(ms));
  } catch {
    return new Intl.DateTimeFormat('en-GB', {...options, timeZone: 'UTC'}).format(new Date(ms));
  }
}

function niceTicks(min, max, count = 4) {
  const span = Math.max(1e-9, max - min);
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((candidate) => span / candidate <= count) ?? power * 10;
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toFixed(10)));
  return ticks;
}

/** A time axis along the bottom of a plot area. */
export function timeAxis(x0, x1, y, min, max, scale, timeZone) {
  const {ticks, step} = timeTicks(min, max, Math.max(2, Math.floor((x1 - x0) / 110)));
  return s('g', {class: 'axis'}, s('line', {x1: x0, x2: x1, y1: y, y2: y}),
    ticks.map((t) => s('g', null, s('line', {x1: scale(t), x2: scale(t), y1: y, y2: y + 4}),
      s('text', {x: scale(t), y: y + 16, 'text-anchor': 'middle'}, timeLabel(t, step, timeZone)))));
}

/**
 * Lines over a shared x axis. `series` is `[{name, points: [[x, y]], cls}]`; `x` may be time (ms,
 * `time: true`) or a plain number. Returns an `<svg>` with a legend.
 */
export function lineChart(series, {width = 880, height = 220, time = false, yLabel = '', role = null, timeZone = null, dots = false, zero = false} = {}) {
  const all = series.flatMap((line) => line.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const svg = s('svg', {class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-role': role, 'aria-label': yLabel || 'chart'});
  if (!all.length) { svg.append(s('text', {x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'muted'}, 'No data')); return svg; }
  const hasLegend = series.length > 1 || Boolean(yLabel);
  const left = 56, right = width - 12, top = hasLegend ? 26 : 12, bottom = height - 28;
  let [xMin, xMax] = [Math.min(...all.map((p) => p[0])), Math.max(...all.map((p) => p[0]))];
  let [yMin, yMax] = [Math.min(...all.map((p) => p[1])), Math.max(...all.map((p) => p[1]))];
  if (xMin === xMax) { xMin -= 1; xMax += 1; }
  if (zero) yMin = Math.min(0, yMin);
  if (yMax - yMin < 1e-6 * Math.max(1, Math.abs(yMax))) { yMin -= 1; yMax += 1; }
  const pad = (yMax - yMin) * 0.08; yMax += pad; if (!zero || yMin < 0) yMin -= pad;
  const sx = (x) => left + (x - xMin) / (xMax - xMin) * (right - left);
  const sy = (y) => bottom - (y - yMin) / (yMax - yMin) * (bottom - top);
  const grid = s('g', {class: 'grid'}, niceTicks(yMin, yMax).map((v) => s('g', null,
    s('line', {x1: left, x2: right, y1: sy(v), y2: sy(v)}),
    s('text', {x: left - 6, y: sy(v) + 4, 'text-anchor': 'end'}, Math.abs(v) >= 1000 ? v.toFixed(0) : String(Number(v.toFixed(2)))))));
  svg.append(grid);
  svg.append(time ? timeAxis(left, right, bottom, xMin, xMax, sx, timeZone)
    : s('g', {class: 'axis'}, s('line', {x1: left, x2: right, y1: bottom, y2: bottom}),
      niceTicks(xMin, xMax, 6).map((v) => s('text', {x: sx(v), y: bottom + 16, 'text-anchor': 'middle'}, String(v)))));
  series.forEach((line, index) => {
    const points = line.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    svg.append(s('polyline', {class: `series ${line.cls ?? `series-${index}`}`, points: points.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}));
    if (dots) points.forEach(([x, y]) => svg.append(s('circle', {class: `dot-mark ${line.cls ?? `series-${index}`}`, cx: sx(x), cy: sy(y), r: 3.5}, s('title', null, `${line.name}: ${y}`))));
  });
  if (hasLegend) {
    const legend = s('g', {class: 'legend'});
    let x = left + 4;
    if (yLabel) { legend.append(s('text', {x, y: 14, class: 'muted'}, yLabel)); x += yLabel.length * 7 + 14; }
    series.forEach((line, index) => {
      legend.append(s('rect', {x, y: 7, width: 10, height: 3, class: `swatch ${line.cls ?? `series-${index}`}`}), s('text', {x: x + 14, y: 14}, line.name));
      x += line.name.length * 7 + 30;
    });
    svg.append(legend);
  }
  return svg;
}

// MARK: Hypnogram

export const STAGES = {0: 'Wake', 3: 'REM', 1: 'Light', 2: 'Deep', '-1': 'No data'};
const STAGE_ORDER = [0, 3, 1, 2, -1];

/**
 * Sleep stages as a hypnogram: one `rect.epoch` per epoch (x: time, y: stage lane), a step line
 * through them, and a snoring band. Hovering names the epoch.
 */
export function hypnogram(stages, {start, epochSeconds = 30, snoring = null, timeZone = 'UTC'} = {}) {
  const width = 960, left = 64, right = width - 10, top = 8, lane = 30;
  const lanes = STAGE_ORDER.filter((stage) => stage !== -1 || stages.some((value) => ![0, 1, 2, 3].includes(value)));
  const snoreTop = top + lanes.length * lane + 6;
  const axisY = snoreTop + (snoring ? 18 : 0) + 4;
  const height = axisY + 24;
  const n = Math.max(1, stages.length);
  const w = (right - left) / n;
  const laneY = (stage) => top + lanes.indexOf(stage) * lane;
  const startMs = Date.parse(start);
  const svg = s('svg', {class: 'chart hypnogram', viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-role': 'hypnogram', 'data-epochs': stages.length,
    'aria-label': `Hypnogram of ${stages.length} epochs`});
  lanes.forEach((stage) => svg.append(
    s('rect', {class: `lane lane-${stage}`, x: left, y: laneY(stage), width: right - left, height: lane}),
    s('text', {class: 'lane-label', x: left - 8, y: laneY(stage) + lane / 2 + 4, 'text-anchor': 'end'}, STAGES[stage])));
  const marks = s('g', {class: 'epochs'});
  let d = '';
  stages.forEach((stage, index) => {
    const y = laneY(lanes.includes(stage) ? stage : -1);
    marks.append(s('rect', {class: `epoch stage-${stage}`, x: (left + index * w).toFixed(2), y: y + 5, width: (Math.max(w, 0.8) + 0.35).toFixed(2), height: lane - 10}));
    const mid = y + lane / 2;
    d += index === 0 ? `M${left},${mid}` : ` V${mid}`;
    d += ` H${(left + (index + 1) * w).toFixed(2)}`;
  });
  svg.append(marks, s('path', {class: 'hypno-line', d}));
  if (snoring) {
    svg.append(s('text', {class: 'lane-label', x: left - 8, y: snoreTop + 11, 'text-anchor': 'end'}, 'Snoring'));
    const band = s('g', {class: 'snoring'});
    snoring.forEach((value, index) => { if (value === 1) band.append(s('rect', {class: 'snore', x: (left + index * w).toFixed(2), y: snoreTop, width: Math.max(w, 0.8).toFixed(2), height: 12})); });
    svg.append(band);
  }
  if (Number.isFinite(startMs)) {
    const endMs = startMs + n * epochSeconds * 1000;
    svg.append(timeAxis(left, right, axisY, startMs, endMs, (t) => left + (t - startMs) / (endMs - startMs) * (right - left), timeZone));
  }
  const cursor = s('line', {class: 'cursor', x1: 0, x2: 0, y1: top, y2: axisY, visibility: 'hidden'});
  const readout = h('div', {class: 'readout muted', 'data-role': 'hypnogram-readout'}, `Times in ${timeZone}. Hover the hypnogram to read an epoch.`);
  svg.append(cursor);
  svg.addEventListener('mousemove', (event) => {
    const box = svg.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width * width;
    const index = Math.floor((x - left) / w);
    if (index < 0 || index >= stages.length) { cursor.setAttribute('visibility', 'hidden'); return; }
    cursor.setAttribute('x1', left + (index + 0.5) * w); cursor.setAttribute('x2', left + (index + 0.5) * w); cursor.setAttribute('visibility', 'visible');
    const at = Number.isFinite(startMs) ? ` · ${timeLabel(startMs + index * epochSeconds * 1000, 1000, timeZone)}` : '';
    readout.textContent = `Epoch ${index}${at} · ${STAGES[stages[index]] ?? stages[index]}${snoring && snoring[index] === 1 ? ' · snoring' : ''}`;
  });
  return h('div', {class: 'hypnogram-box'}, svg, readout);
}

// MARK: WarpLink attribution timeline

/** Clicks (top lane) and installs (bottom lane) on a time axis; a line joins each install to the click it claimed. */
export function attributionTimeline(clicks, installs) {
  const width = 960, height = 170, left = 70, right = width - 14, clickY = 40, installY = 112;
  const times = [...clicks.map((c) => Date.parse(c.clicked_at)), ...installs.map((i) => Date.parse(i.created_at))].filter(Number.isFinite);
  const svg = s('svg', {class: 'chart timeline', viewBox: `0 0 ${width} ${height}`, role: 'img', 'data-role': 'attribution-timeline', 'aria-label': 'Clicks and installs over time'});
  svg.append(s('text', {class: 'lane-label', x: left - 10, y: clickY + 4, 'text-anchor': 'end'}, 'Clicks'),
    s('text', {class: 'lane-label', x: left - 10, y: installY + 4, 'text-anchor': 'end'}, 'Installs'),
    s('line', {class: 'lane-rule', x1: left, x2: right, y1: clickY, y2: clickY}), s('line', {class: 'lane-rule', x1: left, x2: right, y1: installY, y2: installY}));
  if (!times.length) { svg.append(s('text', {x: width / 2, y: 80, 'text-anchor': 'middle', class: 'muted'}, 'No clicks or installs yet')); return svg; }
  let min = Math.min(...times), max = Math.max(...times);
  if (min === max) { min -= 60000; max += 60000; }
  const margin = (max - min) * 0.03; min -= margin; max += margin;
  const sx = (t) => left + (t - min) / (max - min) * (right - left);
  const clickX = new Map(clicks.map((c) => [c.id, sx(Date.parse(c.clicked_at))]));
  const lines = s('g', {class: 'claims'});
  for (const install of installs) {
    if (install.click_id && clickX.has(install.click_id)) {
      lines.append(s('line', {class: 'claim-line', x1: clickX.get(install.click_id), y1: clickY, x2: sx(Date.parse(install.created_at)), y2: installY},
        s('title', null, `${install.install_id} claimed ${install.click_id}`)));
    }
  }
  svg.append(lines);
  for (const click of clicks) {
    svg.append(s('circle', {class: `click-mark ${click.claimed ? 'claimed' : 'unclaimed'} src-${click.source}`, cx: clickX.get(click.id), cy: clickY, r: 6},
      s('title', null, `click ${click.id} · ${click.source} · ${click.clicked_at}${click.device_id ? ' · device ' + click.device_id : ''}${click.claimed ? ' · claimed by ' + click.claimed_by : ' · unclaimed'}`)));
  }
  for (const install of installs) {
    const x = sx(Date.parse(install.created_at));
    svg.append(s('rect', {class: `install-mark ${install.matched ? 'matched' : 'unmatched'}`, x: x - 6, y: installY - 6, width: 12, height: 12, rx: 2},
      s('title', null, `install ${install.install_id} · ${install.outcome}${install.match_type ? ' · ' + install.match_type : ''}${install.click_id ? ' · click ' + install.click_id : ''}`)));
  }
  svg.append(timeAxis(left, right, height - 26, min, max, sx));
  return svg;
}

/** A horizontal bar from `start` to `end` with a "now" marker (warranty coverage, periods). */
export function spanBar(start, end, now, {width = 220, label = ''} = {}) {
  const a = Date.parse(start), b = Date.parse(end), t = Date.parse(now);
  const svg = s('svg', {class: 'spanbar', viewBox: `0 0 ${width} 18`, width, height: 18, role: 'img', 'aria-label': label || 'coverage'});
  if (!Number.isFinite(a) || !Number.isFinite(b) || b <= a) return svg;
  const lo = Math.min(a, t), hi = Math.max(b, t);
  const sx = (v) => 4 + (v - lo) / (hi - lo || 1) * (width - 8);
  svg.append(s('rect', {class: 'track', x: 4, y: 6, width: width - 8, height: 6, rx: 3}),
    s('rect', {class: t >= a && t < b ? 'span active' : 'span', x: sx(a), y: 4, width: Math.max(2, sx(b) - sx(a)), height: 10, rx: 3}),
    s('line', {class: 'now', x1: sx(t), x2: sx(t), y1: 1, y2: 17}, s('title', null, 'project clock now')));
  return svg;
}
