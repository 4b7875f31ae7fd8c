import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/*
 * Issue 21: a user's notice thresholds are audited like the account's notice types (decision 039): one
 * 'notices.choices.changed' entry per save, by that user, with what applied before and what applies after; a
 * refused or invalid save writes none.
 */

const CN = '6200001';
type Headers = Record<string, string>;
let database: TestDatabase;
let app: FastifyInstance;
let reader: Headers;
let outsider: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  ({ reader, outsider } = await buildAccountFixture(database.db, CN, '6200002'));
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const save = (headers: Headers, choices: object) =>
  app.inject({
    method: 'POST',
    url: '/api/notices/choices',
    headers,
    payload: { customerNumber: CN, ...choices },
  });

describe('notice choices audit', () => {
  it('one entry per save with the actor and before/after; refused and invalid saves write none', async () => {
    const week = { expiryDays: [7], usagePercents: [95], runOut: false };
    expect((await save(outsider, week)).statusCode).toBe(403);
    expect((await save(reader, { ...week, expiryDays: [15] })).statusCode).toBe(400);
    expect(await auditEntriesOf(database.db, 'notices.')).toEqual([]);

    expect((await save(reader, week)).statusCode).toBe(200);
    expect((await save(reader, { ...week, runOut: true })).statusCode).toBe(200);
    const rows = await auditEntriesOf(database.db, 'notices.');
    expect(rows).toHaveLength(2);
    const byReader = {
      customerNumber: CN,
      action: 'notices.choices.changed',
      actorKind: 'user',
      actorName: 'reader@acme.example',
      objectType: 'notice-choices',
      objectId: 'reader@acme.example',
    };
    // Before the first save every notice applied (no choices saved = everything).
    expect(rows[0]).toMatchObject({
      ...byReader,
      before: { expiryDays: [90, 30, 7], usagePercents: [80, 95], runOut: true },
      after: week,
    });
    // The entry keeps the fields that changed.
    expect(rows[1]).toMatchObject({ ...byReader, before: { runOut: false }, after: { runOut: true } });
  });
});
