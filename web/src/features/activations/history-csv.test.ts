import type { HistoryRow } from '@lp/contract/activations/schemas';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { historyCsv, historyCsvFileName } from './history-csv.ts';

const host = (name: string, displayName: string): LicenseServer => ({
  id: 1,
  name,
  serverName: name,
  state: 'Active',
  serverId: '001a2b3c4d5e',
  serverIdType: 'ETHERNET',
  hostIdentifier: '001a2b3c4d5e',
  displayName,
  portNumber: 1055,
  triad: false,
  ansysborrowable: false,
  shared: false,
});

const row = (over: Partial<HistoryRow> = {}): HistoryRow => ({
  groupId: 1,
  time: '2026-03-14 08:05:09',
  modifiedBy: 'admin@acme.example',
  action: 'ACTIVATE (2)',
  customerNumber: '1000123',
  activationId: 'A-100',
  product: 'Mechanical Pro',
  count: 2,
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  versionDate: null,
  ...over,
});

const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

describe('activations history CSV', () => {
  it('names the files of both sections after the customer', () => {
    expect(historyCsvFileName('active', '1000123')).toBe('ANSYSActiveServers_1000123.csv');
    expect(historyCsvFileName('inactive', '1000123')).toBe('ANSYSInactiveServers_1000123.csv');
  });

  it('starts with the spec header, even without rows', () => {
    const csv = historyCsv([]);
    expect(csv).toBe(
      'Hostname (hostid),Time,Modified by,Action,Product,Entitlement,Count,Start Date,End Date',
    );
  });

  it('writes one line per history row of every host, in order', () => {
    const a = host('licsrv01', 'licsrv01 (MAC_ADDRESS=001a2b3c4d5e)');
    const b = host('old-licsrv', 'old-licsrv (MAC_ADDRESS=0a0b0c0d0e0f)');
    const csv = historyCsv([
      {
        host: a,
        rows: [
          row(),
          row({
            action: 'DEACTIVATE (1)',
            count: -1,
            modifiedBy: '',
            endDate: null,
            versionDate: '2027-06-30',
          }),
        ],
      },
      { host: b, rows: [row({ activationId: 'B-7', product: 'Fluids', endDate: null })] },
    ]);
    expect(csv.split('\r\n')).toHaveLength(4);
    expect(parse(csv).slice(1)).toEqual([
      [
        'licsrv01 (MAC_ADDRESS=001a2b3c4d5e)',
        '2026-03-14 08:05:09',
        'admin@acme.example',
        'ACTIVATE (2)',
        'Mechanical Pro',
        'A-100',
        '2',
        '2026-01-01',
        '2026-12-31',
      ],
      // An empty modified-by is an automated action; a perpetual ends with its maintenance (decision 049), or is
      // PERMANENT without a maintenance date; returns count negative.
      [
        'licsrv01 (MAC_ADDRESS=001a2b3c4d5e)',
        '2026-03-14 08:05:09',
        'Automated Action',
        'DEACTIVATE (1)',
        'Mechanical Pro',
        'A-100',
        '-1',
        '2026-01-01',
        'Maintenance ends on 2027-06-30',
      ],
      [
        'old-licsrv (MAC_ADDRESS=0a0b0c0d0e0f)',
        '2026-03-14 08:05:09',
        'admin@acme.example',
        'ACTIVATE (2)',
        'Fluids',
        'B-7',
        '2',
        '2026-01-01',
        'PERMANENT',
      ],
    ]);
  });

  it('quotes commas, quotes and line breaks and defuses formulas', () => {
    const csv = historyCsv([
      {
        host: host('lic-a1', 'lic-a1 (MAC_ADDRESS=a,MAC_ADDRESS=b)'),
        rows: [row({ product: 'Solver "HPC", 2\nnodes', modifiedBy: '=HYPERLINK("x")' })],
      },
    ]);
    const line = csv.split('\r\n').slice(1).join('\r\n');
    expect(line).toContain('"lic-a1 (MAC_ADDRESS=a,MAC_ADDRESS=b)"');
    expect(line).toContain('"Solver ""HPC"", 2\nnodes"');
    expect(parse(csv)[1]).toEqual([
      'lic-a1 (MAC_ADDRESS=a,MAC_ADDRESS=b)',
      '2026-03-14 08:05:09',
      `'=HYPERLINK("x")`,
      'ACTIVATE (2)',
      'Solver "HPC", 2\nnodes',
      'A-100',
      '2',
      '2026-01-01',
      '2026-12-31',
    ]);
  });

  it('reads back every text as written (any characters)', () => {
    // Texts a spreadsheet would not take as a formula come back unchanged whatever they hold.
    const text = fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !/^[=+\-@\t\r]/.test(s));
    fc.assert(
      fc.property(text, text, fc.integer({ min: -1000, max: 1000 }), (name, product, count) => {
        const csv = historyCsv([
          { host: host(name, name), rows: [row({ product, count, modifiedBy: 'x' })] },
        ]);
        const [, line] = parse(csv);
        expect(line[0]).toBe(name);
        expect(line[4]).toBe(product);
        expect(Number(line[6])).toBe(count);
      }),
    );
  });
});
