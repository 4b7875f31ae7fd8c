import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { features } from '../../db/schema.ts';

/* Issue 13 §1: a staff member's saved feature selection is one vendor-wide audit entry with the list before and after. */

let database: TestDatabase;
let app: FastifyInstance;
let staff: Record<string, string>;
let customer: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database, { APP_ENVIRONMENT: 'dev' });
  await database.db.insert(features).values([
    { name: 'charts', description: 'Charts', enabled: false, conflicts: ['classic'] },
    { name: 'classic', description: 'Classic', enabled: false, conflicts: [] },
  ]);
  staff = (await signInAs(database.db, 'dev@vendor.example', { vendorRoles: ['support'] })).headers;
  customer = (await signInAs(database.db, 'user@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const save = (headers: Record<string, string>, names: string[]) =>
  app.inject({ method: 'POST', url: '/api/featureflag/features', headers, payload: { features: names } });
const entries = () => auditEntriesOf(database.db, 'featureflags.');

describe('feature-flag audit', () => {
  it('refused saves (customer, unknown feature, conflicting pair) write nothing', async () => {
    expect((await save(customer, ['charts'])).statusCode).toBe(403);
    expect((await save(staff, ['nope'])).statusCode).toBe(400);
    expect((await save(staff, ['charts', 'classic'])).statusCode).toBe(422);
    expect(await entries()).toEqual([]);
  });

  it('a save is one entry by the staff member; saving the same selection again writes none', async () => {
    expect((await save(staff, ['charts'])).statusCode).toBe(200);
    expect((await save(staff, ['charts'])).statusCode).toBe(200);
    expect((await save(staff, ['classic'])).statusCode).toBe(200);
    const rows = await entries();
    expect(rows).toHaveLength(2);
    const common = {
      customerNumber: null,
      actorKind: 'user',
      actorName: 'dev@vendor.example',
      action: 'featureflags.selection.saved',
      objectType: 'feature-selection',
      objectId: 'dev@vendor.example',
      requestId: expect.any(String),
      clientIp: expect.any(String),
    };
    expect(rows[0]).toMatchObject({ ...common, before: { enabled: null }, after: { enabled: ['charts'] } });
    expect(rows[1]).toMatchObject({
      ...common,
      before: { enabled: ['charts'] },
      after: { enabled: ['classic'] },
    });
  });
});
