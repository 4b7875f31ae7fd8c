import type { FsaHistoryRow } from '@lp/contract/fsa/schemas';
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { FSA_HISTORY_COLUMNS, fsaHistoryCsv, fsaHistoryCsvFileName } from './fsa-csv.ts';

const row = (over: Partial<FsaHistoryRow> = {}): FsaHistoryRow => ({
  entitlementId: 'L-2001',
  ansysproduct: 'Mechanical Pro',
  fsaId: 'FSA-100',
  orderdate: '2026-03-14 08:05:09',
  count: 2,
  startdate: '2026-04-01',
  enddate: '2026-06-30',
  cost: 123_456_78,
  currency: 'USD',
  requester: 'admin@acme.example',
  ...over,
});

const parse = (csv: string) => Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;

describe('FSA order history CSV', () => {
  it('is named after the date and the customer with the shared vendor prefix', () => {
    expect(fsaHistoryCsvFileName('2026-11-24', '1000123')).toBe('ANSYSOrderHistory_2026-11-24_1000123.csv');
  });

  it('starts with the column titles, even without rows', () => {
    expect(fsaHistoryCsv([])).toBe(
      'Entitlement,FSA Contract,Order Date,Count,Start Date,Expiration Date,Cost,Currency,Requester',
    );
  });

  it('writes one line per order line in the given order, costs as shown and quoted when they hold a comma', () => {
    const csv = fsaHistoryCsv([row(), row({ entitlementId: 'L-2002', cost: 5_00, enddate: null, count: 1 })]);
    const lines = csv.split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      'Mechanical Pro (L-2001),FSA-100,2026-03-14 08:05:09,2,2026-04-01,2026-06-30,"123,456.78",USD,admin@acme.example',
    );
    expect(lines[2]).toBe(
      'Mechanical Pro (L-2002),FSA-100,2026-03-14 08:05:09,1,2026-04-01,,5.00,USD,admin@acme.example',
    );
  });

  it('quotes commas, quotes and line breaks and defuses formula text', () => {
    const csv = fsaHistoryCsv([row({ ansysproduct: 'Fluids, "HPC"\nPack', requester: '=HYPERLINK("x")' })]);
    expect(parse(csv)[1]).toEqual([
      'Fluids, "HPC"\nPack (L-2001)',
      'FSA-100',
      '2026-03-14 08:05:09',
      '2',
      '2026-04-01',
      '2026-06-30',
      '123,456.78',
      'USD',
      `'=HYPERLINK("x")`,
    ]);
  });

  it('reads back to the same cells for any product and requester text', () => {
    const safe = fc.string().filter((s) => !/^[=+\-@\t\r]/.test(s));
    fc.assert(
      fc.property(safe, safe, fc.integer({ min: 0, max: 1e12 }), (product, requester, cost) => {
        const csv = fsaHistoryCsv([row({ ansysproduct: product, requester, cost })]);
        const [header, line] = Papa.parse<string[]>(csv).data;
        expect(header).toEqual([...FSA_HISTORY_COLUMNS]);
        expect(line?.[0]).toBe(`${product} (L-2001)`);
        expect(line?.[8]).toBe(requester);
        expect(line?.[6]?.replaceAll(',', '')).toBe((cost / 100).toFixed(2));
      }),
    );
  });
});
