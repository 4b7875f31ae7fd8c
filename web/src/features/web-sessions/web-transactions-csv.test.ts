import type { WebTransactionRow } from '@lp/contract/web-sessions/schemas';
import { describe, expect, it } from 'vitest';
import { webTransactionsCsv, webTransactionsCsvFileName } from './web-transactions-csv.ts';

const row: WebTransactionRow = {
  Start: '2026-11-03 10:00:00',
  End: null,
  Duration: null,
  Email: 'eve@acme.example',
  UserName: 'Eve, "the" admin',
  Group: '',
  PartNumber: 'SW-1',
  Product: 'Mechanical - Shared Web',
  Application: 'Mech Cloud',
  Client: '=HYPERLINK("http://x")',
  Outcome: 'Denied',
  DenialReason: 'Pool full',
};

describe('web transactions CSV', () => {
  it('writes the shown columns, quotes what needs quoting and defuses formulas', () => {
    const csv = webTransactionsCsv(
      [
        { field: 'Start', title: 'Start (UTC)' },
        { field: 'End', title: 'End (UTC)' },
        { field: 'UserName', title: 'Name' },
        { field: 'Client', title: 'Client' },
        { field: 'DenialReason', title: 'Reason' },
      ],
      [row],
    );
    expect(csv).toBe(
      'Start (UTC),End (UTC),Name,Client,Reason\r\n' +
        `2026-11-03 10:00:00,,"Eve, ""the"" admin","'=HYPERLINK(""http://x"")",Pool full`,
    );
  });

  it('names the file by account and day', () => {
    expect(webTransactionsCsvFileName('4100001', '2026-11-27')).toBe(
      'WebTransactions_4100001_2026-11-27.csv',
    );
  });
});
