import type { AuditRow } from '@lp/contract/audit/schemas';
import { describe, expect, it } from 'vitest';
import { auditCsv, auditCsvFileName } from './audit-csv.ts';

const row = (over: Partial<AuditRow> = {}): AuditRow => ({
  id: 1,
  time: '2026-11-24 10:00:00',
  account: '1000123',
  actorKind: 'user',
  actor: 'pat@acme.example',
  action: 'ip-rules.replaced',
  objectType: 'ip-rules',
  objectId: '1000123',
  requestId: 'req-1',
  clientRequestId: null,
  clientIp: '203.0.113.7',
  before: { ranges: ['10.0.0.1'] },
  after: { ranges: ['10.0.0.2'] },
  ...over,
});

describe('audit CSV', () => {
  it('names the file after the account or all accounts and the day', () => {
    expect(auditCsvFileName('1000123', '2026-11-24')).toBe('AuditLog_1000123_2026-11-24.csv');
    expect(auditCsvFileName(null, '2026-11-24')).toBe('AuditLog_AllAccounts_2026-11-24.csv');
  });

  it('writes one line per entry, the change as JSON, the account only for the cross-account view', () => {
    expect(auditCsv([row()], false).split('\r\n')).toEqual([
      'Time (UTC),Actor,Actor type,Action,Object type,Object,Before,After,Request id,Client address',
      '2026-11-24 10:00:00,pat@acme.example,user,ip-rules.replaced,ip-rules,1000123,"{""ranges"":[""10.0.0.1""]}","{""ranges"":[""10.0.0.2""]}",req-1,203.0.113.7',
    ]);
    const cross = auditCsv([row({ account: null, before: null, requestId: null, clientIp: null })], true);
    expect(cross.split('\r\n')[0]).toMatch(/^Time \(UTC\),Account,Actor,/);
    expect(cross.split('\r\n')[1]).toMatch(/^2026-11-24 10:00:00,,pat@acme.example,.*,,"\{""ranges""/);
  });

  it('defuses text a spreadsheet would run', () => {
    expect(auditCsv([row({ objectId: '=HYPERLINK("x")' })], false)).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
