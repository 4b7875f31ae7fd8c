import type { HistoryRow } from '@lp/contract/activations/schemas';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chunked,
  flattenTree,
  type HostHistory,
  historyTimeText,
  hostKeyOf,
  hostsOfSection,
  LOADING_TEXT,
  modifiedByText,
  NO_HISTORY_TEXT,
  stateText,
  type TreeRow,
  treeOrder,
  wantedHosts,
} from './history-tree.ts';

const host = (name: string, serverId: string, state: LicenseServer['state'] = 'Active', type = 'ETHERNET') =>
  ({
    id: 0,
    name,
    serverName: name,
    state,
    serverId,
    serverIdType: type,
    hostIdentifier: serverId,
    displayName: `${name} (${serverId})`,
    portNumber: 1055,
    triad: false,
    ansysborrowable: false,
    shared: false,
  }) satisfies LicenseServer;

const row = (activationId: string, count = 1): HistoryRow => ({
  groupId: 1,
  time: '2026-03-14 08:05:09',
  modifiedBy: '',
  action: count > 0 ? `ACTIVATE (${count})` : `DEACTIVATE (${-count})`,
  customerNumber: '1000123',
  activationId,
  product: 'P',
  count,
  startDate: '2026-01-01',
  endDate: null,
  versionDate: null,
});

const describeRows = (rows: TreeRow[]) =>
  rows.map((r) =>
    r.kind === 'host'
      ? `host ${r.host.name}`
      : r.kind === 'status'
        ? `  ${r.text}`
        : `  ${r.row.activationId}`,
  );

describe('history page hosts', () => {
  it('puts Active hosts in Active Servers and Inactive and Unknown ones in Inactive Servers, by name, id, type', () => {
    const hosts = [
      host('zeta', '02'),
      host('old', '09', 'Inactive'),
      host('alpha', '05'),
      host('alpha', '03', 'Active', 'FLEXID'),
      host('alpha', '03', 'Active', 'DISK_SERIAL_NUM'),
      host('new', '07', 'Unknown'),
    ];
    expect(hostsOfSection(hosts, 'active').map((h) => `${h.name} ${h.serverId} ${h.serverIdType}`)).toEqual([
      'alpha 03 DISK_SERIAL_NUM',
      'alpha 03 FLEXID',
      'alpha 05 ETHERNET',
      'zeta 02 ETHERNET',
    ]);
    expect(hostsOfSection(hosts, 'inactive').map((h) => h.name)).toEqual(['new', 'old']);
    expect(hosts.map(stateText)).toContain('unknown');
  });

  it('pre-fetches the first five hosts and every expanded one', () => {
    const hosts = Array.from({ length: 8 }, (_, i) => host(`h${i}`, `0${i}`));
    expect(wantedHosts(hosts, new Set()).map((h) => h.name)).toEqual(['h0', 'h1', 'h2', 'h3', 'h4']);
    expect(wantedHosts(hosts, new Set([hostKeyOf(hosts[6])])).map((h) => h.name)).toEqual([
      'h0',
      'h1',
      'h2',
      'h3',
      'h4',
      'h6',
    ]);
    expect(chunked([1, 2, 3, 4, 5, 6, 7], 5)).toEqual([
      [1, 2, 3, 4, 5],
      [6, 7],
    ]);
  });
});

describe('history texts', () => {
  it('shows times as yyyy-MM-dd H:mm', () => {
    expect(historyTimeText('2026-03-14 08:05:09')).toBe('2026-03-14 8:05');
    expect(historyTimeText('2026-03-14 00:00:59')).toBe('2026-03-14 0:00');
    expect(historyTimeText('2026-03-14 23:59:00')).toBe('2026-03-14 23:59');
    expect(historyTimeText('not a time')).toBe('not a time');
  });

  it('names an empty modified-by an automated action', () => {
    expect(modifiedByText('')).toBe('Automated Action');
    expect(modifiedByText('  ')).toBe('Automated Action');
    expect(modifiedByText('a@b.example')).toBe('a@b.example');
  });
});

describe('history tree rows', () => {
  const a = host('a', '01');
  const b = host('b', '02');
  const c = host('c', '03');

  it('lists hosts, and under each expanded one its rows or a status row', () => {
    const history = new Map<string, HostHistory>([
      [hostKeyOf(a), { status: 'ready', rows: [row('X'), row('Y', -2)] }],
      [hostKeyOf(b), { status: 'ready', rows: [] }],
    ]);
    const all = new Set([a, b, c].map(hostKeyOf));
    expect(describeRows(flattenTree([a, b, c], all, history))).toEqual([
      'host a',
      '  X',
      '  Y',
      'host b',
      `  ${NO_HISTORY_TEXT}`,
      'host c',
      `  ${LOADING_TEXT}`,
    ]);
    expect(describeRows(flattenTree([a, b, c], new Set([hostKeyOf(c)]), history))).toEqual([
      'host a',
      'host b',
      'host c',
      `  ${LOADING_TEXT}`,
    ]);
    const failed = new Map<string, HostHistory>([[hostKeyOf(a), { status: 'error', message: 'E' }]]);
    expect(describeRows(flattenTree([a], all, failed))).toEqual(['host a', '  E']);
  });

  it('gives every row its own id', () => {
    const history = new Map<string, HostHistory>([
      [hostKeyOf(a), { status: 'ready', rows: [row('X'), row('X')] }],
    ]);
    const rows = flattenTree([a, b], new Set([hostKeyOf(a), hostKeyOf(b)]), history);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('puts sorted rows back under their hosts, hosts in their own order, keeping the sort within a host', () => {
    const history = new Map<string, HostHistory>([
      [hostKeyOf(a), { status: 'ready', rows: [row('A1'), row('A2')] }],
      [hostKeyOf(b), { status: 'ready', rows: [row('B1'), row('B2')] }],
    ]);
    const rows = flattenTree([a, b, c], new Set([a, b, c].map(hostKeyOf)), history);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // What a descending sort on activation id might leave: host rows (empty values) last.
    const sorted = [...rows].sort((x, y) => {
      const key = (r: TreeRow) => (r.kind === 'history' ? r.row.activationId : '');
      return key(y).localeCompare(key(x));
    });
    expect(describeRows(treeOrder(sorted, (r) => byId.get(r.id)))).toEqual([
      'host a',
      '  A2',
      '  A1',
      'host b',
      '  B2',
      '  B1',
      'host c',
      `  ${LOADING_TEXT}`,
    ]);
  });

  it('keeps every row and its host above it whatever order the grid hands back', () => {
    const hosts = [a, b, c];
    const history = new Map<string, HostHistory>([
      [hostKeyOf(a), { status: 'ready', rows: [row('A1'), row('A2'), row('A3')] }],
      [hostKeyOf(b), { status: 'ready', rows: [row('B1')] }],
    ]);
    const rows = flattenTree(hosts, new Set(hosts.map(hostKeyOf)), history);
    const hostRows = rows.filter((r) => r.kind === 'host');
    // Filters never drop host rows; any other row may go, and the grid may hand them back in any order.
    const handedBack = fc.shuffledSubarray(rows.filter((r) => r.kind !== 'host')).chain((kept) => {
      const all = [...hostRows, ...kept];
      return fc.shuffledSubarray(all, { minLength: all.length });
    });
    fc.assert(
      fc.property(handedBack, (subset) => {
        const ordered = treeOrder(subset, (r) => r);
        expect(new Set(ordered)).toEqual(new Set(subset));
        // Hosts in their order; every other row right after its host's row or a sibling.
        const hostsInOrder = ordered.filter((r) => r.kind === 'host');
        expect(hostsInOrder.map((r) => r.order)).toEqual([0, 1, 2]);
        let current: string | null = null;
        for (const r of ordered) {
          if (r.kind === 'host') current = r.hostKey;
          else expect(r.hostKey).toBe(current);
        }
        // Within a host, history rows keep the order they were handed in.
        for (const h of hosts) {
          const key = hostKeyOf(h);
          const inGiven = subset.filter((r) => r.kind === 'history' && r.hostKey === key);
          const inOrdered = ordered.filter((r) => r.kind === 'history' && r.hostKey === key);
          expect(inOrdered).toEqual(inGiven);
        }
      }),
    );
  });

  it('drops rows whose host is not listed', () => {
    const history = new Map<string, HostHistory>([[hostKeyOf(a), { status: 'ready', rows: [row('A1')] }]]);
    const rows = flattenTree([a], new Set([hostKeyOf(a)]), history);
    expect(treeOrder(rows.slice(1), (r) => r)).toEqual([]);
  });
});
