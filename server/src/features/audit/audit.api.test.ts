import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { apiTest } from '../../../test/api-fixture.ts';
import type { Db } from '../../db/database.ts';
import { auditEntries } from '../../db/schema.ts';
import type { Principal } from '../../platform/principal.ts';
import { GENESIS_HASH } from './chain.ts';
import { type AuditActor, type AuditChange, auditActor, automatedActor, recordAudit } from './service.ts';
import { verifyAudit } from './verify-service.ts';

/*
 * The audit log's core (issue 13 §1, decision 039): entries chained per account, append-only in the database,
 * and `audit verify` finding an edited or removed entry.
 */

const alex: Principal = {
  userId: '00000000-0000-4000-8000-000000000001',
  email: 'alex@acme.example',
  name: 'Alex',
  vendorRoles: [],
  via: 'session',
  origin: { requestId: 'req-1', clientRequestId: null, clientIp: '203.0.113.7' },
};

const change = (customerNumber: string | null, n: number): AuditChange => ({
  customerNumber,
  action: 'ip-rules.changed',
  object: { type: 'ip-rules', id: customerNumber ?? 'global' },
  before: { ranges: [`10.0.0.${n}`] },
  after: { ranges: [`10.0.0.${n + 1}`] },
});

const it = apiTest.extend('log', { scope: 'file' }, async ({ database }) => ({
  write: (actor: AuditActor, c: AuditChange) =>
    database.db.transaction((tx) => recordAudit(tx as unknown as Db, actor, [c])),
  entriesOf: (chain: string) =>
    database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.chain, chain))
      .orderBy(asc(auditEntries.seq)),
  /** What an operator with direct database access could do: the app has no such path, and the table refuses it. */
  tamper: (statement: string) =>
    database.db.transaction(async (tx) => {
      await tx.execute(sql.raw('ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_no_change'));
      await tx.execute(sql.raw(statement));
      await tx.execute(sql.raw('ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_no_change'));
    }),
}));

describe('recording', () => {
  it('chains entries per account with who, what, the changed fields, the request and the address', async ({
    database,
    log: { write, entriesOf },
  }) => {
    const [first] = await write(auditActor(alex), change('5000001', 1));
    await write(auditActor({ ...alex, via: 'token', tokenId: 'tok-9' }), change('5000001', 2));
    await write(automatedActor, change('5000002', 1));
    const rows = await entriesOf('5000001');
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(rows[0]).toMatchObject({
      customerNumber: '5000001',
      actorKind: 'user',
      actorId: alex.userId,
      actorName: 'alex@acme.example',
      action: 'ip-rules.changed',
      objectType: 'ip-rules',
      objectId: '5000001',
      before: { ranges: ['10.0.0.1'] },
      after: { ranges: ['10.0.0.2'] },
      requestId: 'req-1',
      clientIp: '203.0.113.7',
      prevHash: GENESIS_HASH,
    });
    expect(rows[1]).toMatchObject({ actorKind: 'api-token', actorId: 'tok-9', prevHash: first?.hash });
    expect((await entriesOf('5000002'))[0]).toMatchObject({
      seq: 1,
      actorKind: 'automated',
      actorName: 'Automated Action',
      requestId: null,
    });
    expect((await verifyAudit(database.db)).every((c) => c.ok)).toBe(true);
  });

  it('keeps only the fields that changed, and records nothing for a change that changes nothing', async ({
    database,
    log: { entriesOf },
  }) => {
    const [row] = await database.db.transaction((tx) =>
      recordAudit(tx as unknown as Db, automatedActor, [
        {
          customerNumber: '5000003',
          action: 'portal-access.contact.changed',
          object: { type: 'contact', id: 'pat@acme.example' },
          before: { role: 'Licensing Portal Viewer', name: 'Pat' },
          after: { role: 'Licensing Portal Administrator', name: 'Pat' },
        },
      ]),
    );
    expect(row).toMatchObject({
      before: { role: 'Licensing Portal Viewer' },
      after: { role: 'Licensing Portal Administrator' },
    });
    const none = await database.db.transaction((tx) =>
      recordAudit(tx as unknown as Db, automatedActor, [
        {
          customerNumber: '5000003',
          action: 'portal-access.contact.changed',
          object: { type: 'contact', id: 'pat@acme.example' },
          before: { name: 'Pat' },
          after: { name: 'Pat' },
        },
      ]),
    );
    expect(none).toEqual([]);
    expect(await entriesOf('5000003')).toHaveLength(1);
  });

  it('a change rolled back leaves no entry', async ({ database, log: { entriesOf } }) => {
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx as unknown as Db, automatedActor, [change('5000004', 1)]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await entriesOf('5000004')).toEqual([]);
  });

  it('numbers parallel appends to one chain without gaps', async ({
    database,
    log: { write, entriesOf },
  }) => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => write(automatedActor, change('5000005', i))));
    expect((await entriesOf('5000005')).map((r) => r.seq)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(await verifyAudit(database.db, '5000005')).toEqual([{ chain: '5000005', entries: 25, ok: true }]);
  });

  it('a batch over several chains: one entry per change, each chain numbered on from its head, all verifying', async ({
    database,
    log: { write, entriesOf },
  }) => {
    await write(automatedActor, change('5000020', 1));
    const batch = [
      change('5000021', 1),
      change('5000020', 2),
      change(null, 1),
      change('5000021', 2),
      change('5000020', 3),
    ];
    const recorded = await database.db.transaction((tx) =>
      recordAudit(tx as unknown as Db, auditActor(alex), batch),
    );
    // Chain by chain in the lock order (byte order of the chain key), each chain's changes in the caller's order.
    expect(recorded.map((e) => [e.chain, e.seq, e.after])).toEqual([
      ['*', expect.any(Number), { ranges: ['10.0.0.2'] }],
      ['5000020', 2, { ranges: ['10.0.0.3'] }],
      ['5000020', 3, { ranges: ['10.0.0.4'] }],
      ['5000021', 1, { ranges: ['10.0.0.2'] }],
      ['5000021', 2, { ranges: ['10.0.0.3'] }],
    ]);
    const twenty = await entriesOf('5000020');
    expect(twenty.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(twenty[2]?.prevHash).toBe(twenty[1]?.hash);
    const checks = await verifyAudit(database.db);
    expect(checks.filter((c) => ['5000020', '5000021', '*'].includes(c.chain)).every((c) => c.ok)).toBe(true);
    expect(checks.find((c) => c.chain === '5000021')).toEqual({ chain: '5000021', entries: 2, ok: true });
  });

  it('parallel batches over the same chains in opposite orders neither deadlock nor leave gaps', async ({
    database,
    log: { entriesOf },
  }) => {
    const forward = ['5000030', '5000031', '5000032'];
    const batches = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? [...forward].reverse() : forward).map((cn) => change(cn, i)),
    );
    await Promise.all(
      batches.map((b) =>
        database.db.transaction((tx) => recordAudit(tx as unknown as Db, automatedActor, b)),
      ),
    );
    for (const cn of forward) {
      expect((await entriesOf(cn)).map((r) => r.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(await verifyAudit(database.db, cn)).toEqual([{ chain: cn, entries: 12, ok: true }]);
    }
  });

  it('the table refuses updates and deletes', async ({ database, log: { write, entriesOf } }) => {
    await write(automatedActor, change('5000006', 1));
    await expect(
      database.db.execute(sql`update audit_entries set action = 'x' where chain = '5000006'`),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`delete from audit_entries where chain = '5000006'`),
    ).rejects.toThrow();
    expect(await entriesOf('5000006')).toHaveLength(1);
  });
});

describe('verify', () => {
  it('finds an edited entry, a removed entry and a removed last entry', async ({
    database,
    log: { write, tamper },
  }) => {
    for (const cn of ['5000010', '5000011', '5000012'])
      for (let i = 0; i < 4; i++) await write(auditActor(alex), change(cn, i));
    await tamper(
      `update audit_entries set after = '{"ranges":["0.0.0.0/0"]}' where chain = '5000010' and seq = 2`,
    );
    await tamper(`delete from audit_entries where chain = '5000011' and seq = 3`);
    await tamper(`delete from audit_entries where chain = '5000012' and seq = 4`);
    const checks = await verifyAudit(database.db);
    const byChain = new Map(checks.map((c) => [c.chain, c]));
    expect(byChain.get('5000010')).toEqual({
      chain: '5000010',
      entries: 1,
      ok: false,
      problem: { seq: 2, reason: 'entry edited' },
    });
    expect(byChain.get('5000011')?.problem).toEqual({ seq: 3, reason: 'entry missing' });
    expect(byChain.get('5000012')?.problem).toEqual({ seq: 4, reason: 'entry missing' });
    expect(byChain.get('5000001')?.ok).toBe(true);
  });
});
