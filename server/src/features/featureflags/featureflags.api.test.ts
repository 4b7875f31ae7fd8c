import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { features } from '../../db/schema.ts';

let database: TestDatabase;
let app: FastifyInstance;
let prodApp: FastifyInstance;
let staff: Record<string, string>;
let otherStaff: Record<string, string>;
let customer: Record<string, string>;

const url = '/api/featureflag/features';

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database, { APP_ENVIRONMENT: 'dev' });
  prodApp = await createTestApp(database, {
    APP_ENVIRONMENT: 'prod',
    PUBLIC_URL: 'https://portal.example.com',
  });
  await database.db.insert(features).values([
    { name: 'elastic', description: 'Route /elastic', enabled: true, conflicts: [] },
    { name: 'emails', description: 'Route /emails', enabled: true, conflicts: [] },
    { name: 'charts', description: 'Charts', enabled: false, conflicts: ['classic'] },
    // One-sided on purpose: a conflict listed by either side counts.
    { name: 'classic', description: 'Classic', enabled: false, conflicts: [] },
  ]);
  staff = (await signInAs(database.db, 'dev@vendor.example', { vendorRoles: ['support'] })).headers;
  otherStaff = (await signInAs(database.db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  customer = (await signInAs(database.db, 'user@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await prodApp?.close();
  await database?.close();
});

const get = (a: FastifyInstance, headers: Record<string, string>) =>
  a.inject({ method: 'GET', url, headers });
const post = (a: FastifyInstance, headers: Record<string, string>, payload: unknown) =>
  a.inject({ method: 'POST', url, headers, payload: payload as object });

describe('feature flags', () => {
  it('refuses anonymous calls with 401', async () => {
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { 'x-lp-csrf': '1' },
      payload: { features: [] },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().status).toBe('FAILURE');
  });

  it('lists the features with the default set in force', async () => {
    const res = await get(app, staff);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('SUCCESS');
    expect(body.data.features).toContainEqual({
      name: 'charts',
      description: 'Charts',
      enabled: false,
      conflicts: ['classic'],
    });
    expect(body.data.enabled).toEqual(['elastic', 'emails']);
    expect(body.data.overridable).toBe(true);
    expect((await get(app, customer)).json().data.overridable).toBe(false);
  });

  it('saves a user set that then replaces the defaults for that user only', async () => {
    const res = await post(app, staff, { features: ['elastic', 'charts', 'elastic'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { enabled: ['charts', 'elastic'] } });
    expect((await get(app, staff)).json().data.enabled).toEqual(['charts', 'elastic']);
    expect((await get(app, otherStaff)).json().data.enabled).toEqual(['elastic', 'emails']);
    // An empty set is a valid choice, not "back to defaults".
    await post(app, otherStaff, { features: [] });
    expect((await get(app, otherStaff)).json().data.enabled).toEqual([]);
  });

  it('rejects unknown names and bad bodies with 400', async () => {
    const res = await post(app, staff, { features: ['elastic', 'nope'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'FAILURE', err: 'Unknown feature: nope' });
    expect((await post(app, staff, { features: 'elastic' })).statusCode).toBe(400);
    expect((await post(app, staff, {})).statusCode).toBe(400);
  });

  it('refuses a conflicting set with 422 and keeps the saved one', async () => {
    const res = await post(app, staff, { features: ['classic', 'charts'] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      status: 'FAILURE',
      code: 'UNPROCESSABLE',
      err: 'Selections are in conflict. Deselect one or more option. Conflicting: charts and classic.',
    });
    expect((await get(app, staff)).json().data.enabled).toEqual(['charts', 'elastic']);
  });

  it('refuses overrides from customer users', async () => {
    expect((await post(app, customer, { features: ['elastic'] })).statusCode).toBe(403);
  });

  it('refuses overrides in production and ignores sets saved before', async () => {
    const res = await post(prodApp, staff, { features: ['elastic'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().err).toBe('Feature flags cannot be changed in production.');
    const data = (await get(prodApp, staff)).json().data;
    expect(data.enabled).toEqual(['elastic', 'emails']);
    expect(data.overridable).toBe(false);
  });
});
