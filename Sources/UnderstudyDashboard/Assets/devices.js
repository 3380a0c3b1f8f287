// A project's devices: the app installations its SDK requests named (an Asleep product, a
// WarrantyLife device, a WarpLink install, a Telematics user), one device's requests oldest first
// with links into the journal, and Forget, which removes the state the platform keeps for it so a
// first launch can be tested again.

import {api, errorBox, projectPath, query} from './api.js';
import {confirmButton, empty, fmtDateTime, h, link, platformBadge, replace, section, statusChip, table, toast} from './dom.js';

const devicePath = (project, platform, device) =>
  projectPath(project, `/devices/${encodeURIComponent(platform)}/${encodeURIComponent(device)}`);

export async function renderDevices({main, project, params, signal, setParams}) {
  const listBox = h('div', {'data-role': 'device-list'});
  const detailBox = h('div', {'data-role': 'device-detail'});
  replace(main, h('div', {class: 'page-head'}, h('h1', null, 'Devices'),
    h('p', {class: 'muted'}, 'The app installations this project’s SDK requests named. Forget removes what the platform keeps for one, so its first launch can run again.')),
  listBox, detailBox);

  async function showList() {
    const {devices} = await api('GET', projectPath(project, '/devices'), undefined, {signal});
    if (devices.length === 0) {
      replace(listBox, section('Devices', empty('No request named a device yet.')));
      return devices;
    }
    const selected = (row) => row.platform === params.get('platform') && row.device === params.get('device');
    replace(listBox, section('Devices', table([
      ['Platform', (row) => platformBadge(row.platform)],
      ['Device', (row) => h('span', {class: 'mono', 'data-role': 'device-name'}, row.device)],
      ['Requests', (row) => String(row.requests), 'num'],
      ['Findings', (row) => String(row.findings), 'num'],
      ['First seen', (row) => fmtDateTime(row.firstSeen)],
      ['Last seen', (row) => fmtDateTime(row.lastSeen)],
    ], devices, {onRowClick: (row) => select(row.platform, row.device), selected})));
    return devices;
  }

  async function showDevice(platform, device) {
    const detail = await api('GET', devicePath(project, platform, device) + query({limit: 1000}), undefined, {signal});
    const journal = (entry) => link(`/__admin/ui/projects/${encodeURIComponent(project)}/journal?entry=${entry.id}`, `#${entry.id}`);
    const forget = confirmButton('Forget device', 'Click again to forget', async () => {
      try {
        const result = await api('DELETE', devicePath(project, platform, device));
        toast(`Forgot ${device}: ${result.forgotten} ${result.forgotten === 1 ? 'record' : 'records'} removed.`);
        await showList();
      } catch (error) {
        toast(error.message, 'error');
      }
    });
    forget.dataset.role = 'forget-device';
    replace(detailBox, section(`${device}`,
      h('p', {class: 'muted'}, `${platform} · ${detail.requests} requests · ${detail.findings} findings · oldest first`),
      h('div', {class: 'row'}, forget),
      detail.timeline.length === 0 ? empty('No journalled request.') : table([
        ['Entry', journal],
        ['Time', (entry) => fmtDateTime(entry.time)],
        ['Method', (entry) => entry.method],
        ['Path', (entry) => h('span', {class: 'mono wrap'}, entry.path + (entry.query ? `?${entry.query}` : ''))],
        ['Status', (entry) => statusChip(entry.status)],
      ], detail.timeline)));
    detailBox.querySelector('table')?.setAttribute('data-role', 'device-timeline');
  }

  async function select(platform, device) {
    setParams({platform, device});
    params.set('platform', platform);
    params.set('device', device);
    try { await showList(); await showDevice(platform, device); } catch (error) { if (!signal.aborted) replace(detailBox, errorBox(error)); }
  }

  await showList();
  if (params.get('platform') && params.get('device')) {
    try { await showDevice(params.get('platform'), params.get('device')); } catch (error) { replace(detailBox, errorBox(error)); }
  }
}
