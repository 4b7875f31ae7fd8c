import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { usageCsv, usageCsvFileName } from './usage-csv.ts';

describe('usage CSV export', () => {
  it('names the file after the customer and the period days', () => {
    expect(
      usageCsvFileName('1000123', {
        from: new Date('2026-03-14T00:00:00.000Z'),
        to: new Date('2026-03-15T23:59:59.999Z'),
      }),
    ).toBe('ElasticLicensingUsageTransactions_1000123_2026-03-14_2026-03-15.csv');
  });

  it('writes the given columns in order with their titles, quoting what needs it', () => {
    const csv = usageCsv(
      [
        { field: 'StartTime', title: 'Start Time' },
        { field: 'EndTime', title: 'End Time' },
        { field: 'User', title: 'Username' },
        { field: 'Project', title: 'Project' },
        { field: 'Charge', title: 'Cost' },
      ],
      [
        { StartTime: '2026-03-14 08:00:00', EndTime: null, User: 'o"neil', Project: 'Wing, v2', Charge: 1.5 },
        {
          StartTime: '2026-03-14 09:00:00',
          EndTime: '2026-03-14 10:00:00',
          User: '=cmd()',
          Project: 'a\nb',
          Charge: -2,
        },
      ],
    );
    expect(csv.split('\r\n')[0]).toBe('Start Time,End Time,Username,Project,Cost');
    const parsed = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ['Start Time', 'End Time', 'Username', 'Project', 'Cost'],
      ['2026-03-14 08:00:00', '', 'o"neil', 'Wing, v2', '1.5'],
      // A value a spreadsheet would run as a formula is defused; numbers stay numbers.
      ['2026-03-14 09:00:00', '2026-03-14 10:00:00', "'=cmd()", 'a\nb', '-2'],
    ]);
  });
});
