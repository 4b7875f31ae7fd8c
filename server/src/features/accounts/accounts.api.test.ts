import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

let database: TestDatabase;
let app: FastifyInstance;
let admin: Record<string, string>; // customer administrator of ACME and Beta
let viewer: Record<string, string>; // viewer of ACME only
let busops: Record<string, string>;
let nobody: Record<string, string>; // customer user without accounts

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const db = database.db;
  await buildAccount(db, { customerNumber: '1000001', name: 'Acme Fluids' });
  await buildAccount(db, { customerNumber: '1000002', name: 'Beta Structures', orgType: 'Channel' });
  await buildAccount(db, { customerNumber: '1000003', name: 'Gamma Optics', exportControlStatus: 'Pending' });
  await buildAccount(db, { customerNumber: '1000004', name: 'Delta 100% _under_' });
  await addContact(db, '1000001', 'admin@acme.example', contactRoles.admin);
  await addContact(db, '1000002', 'admin@acme.example', contactRoles.admin);
  await addContact(db, '1000003', 'admin@acme.example', contactRoles.viewer);
  await addContact(db, '1000001', 'viewer@acme.example', contactRoles.viewer);
  await buildEntitlement(db, '1000001', { kind: 'ELASTIC', licenseModel: 'Elastic-AEU' });
  await buildEntitlement(db, '1000001', { kind: 'ELASTIC', licenseModel: 'Elastic-AEU' });
  await buildEntitlement(db, '1000001', { kind: 'SSL', licenseType: 'shared' });
  await buildEntitlement(db, '1000001', { kind: 'FSA', licenseModel: 'FSA', state: 'Expired' });
  admin = (await signInAs(db, 'admin@acme.example')).headers;
  viewer = (await signInAs(db, 'viewer@acme.example')).headers;
  busops = (await signInAs(db, 'busops@demo.example', { vendorRoles: ['busops'] })).headers;
  nobody = (await signInAs(db, 'nobody@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, headers: Record<string, string> | undefined, payload: unknown = {}) =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });
const get = (url: string, headers?: Record<string, string>) => app.inject({ method: 'GET', url, headers });
const ids = (body: { data: { AccountID: string }[] }) => body.data.map((r) => r.AccountID);

describe('authentication', () => {
  it.each([
    ['POST', '/api/getaccounts'],
    ['POST', '/api/getaccounts/count'],
    ['POST', '/api/getaccounts/distinct'],
    ['POST', '/api/getCustomerAccounts'],
    ['POST', '/api/accounts'],
    ['GET', '/api/getaccountinfo/1000001'],
    ['GET', '/api/lastupdatedon'],
    ['GET', '/api/getUserDetails'],
    ['GET', '/api/getBuildInfo'],
    ['GET', '/api/featureflag/pref'],
    ['POST', '/api/featureflag/pref'],
  ])('anonymous %s %s gets 401 and no data', async (method, url) => {
    const res = await app.inject({
      method: method as 'GET' | 'POST',
      url,
      payload: method === 'POST' ? {} : undefined,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
  });
});

describe('POST /api/getaccounts', () => {
  it('lists only the accounts a customer user is a contact of', async () => {
    const res = await post('/api/getaccounts', admin, {});
    expect(res.statusCode).toBe(200);
    expect(ids(res.json())).toEqual(['1000001', '1000002', '1000003']);
    expect(ids((await post('/api/getaccounts', nobody, {})).json())).toEqual([]);
  });

  it('lists every account for vendor staff and pages with continuation tokens', async () => {
    const first = (await post('/api/getaccounts', busops, { limit: 3 })).json();
    expect(ids(first)).toEqual(['1000001', '1000002', '1000003']);
    expect(first.token).toEqual(expect.any(String));
    const second = (await post('/api/getaccounts', busops, { limit: 3, token: first.token })).json();
    expect(ids(second)).toEqual(['1000004']);
    expect(second.token).toBeNull();
  });

  it('filters by name case-insensitively and treats wildcards literally', async () => {
    const filter = (value: string) => ({
      filter: {
        condition: 'ANY',
        criteria: [{ name: 'AccountName', method: 'CONTAINS', value, casefold: true }],
      },
    });
    expect(ids((await post('/api/getaccounts', busops, filter('BETA'))).json())).toEqual(['1000002']);
    expect(ids((await post('/api/getaccounts', busops, filter('100%'))).json())).toEqual(['1000004']);
    expect(ids((await post('/api/getaccounts', busops, filter('_'))).json())).toEqual(['1000004']);
  });

  it('refuses a filter that is not by account ID or name', async () => {
    for (const criteria of [
      [{ name: 'Secret', method: 'CONTAINS', value: 'x' }],
      [{ name: 'AccountName', method: 'CONTAINS', value: '   ' }],
      [{ name: 'AccountID', method: '>', value: '1' }],
    ]) {
      const res = await post('/api/getaccounts', busops, { filter: { condition: 'ALL', criteria } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.invalidAccountFilter });
    }
  });

  it('rejects wrong types and over-limit requests with a clear 400', async () => {
    const res = await post('/api/getaccounts', busops, { limit: 'ten' });
    expect(res.statusCode).toBe(400);
    expect(res.json().err).toMatch(/limit/);
    expect((await post('/api/getaccounts', busops, { limit: 501 })).statusCode).toBe(400);
  });

  it('rejects a tampered continuation token', async () => {
    const { token } = (await post('/api/getaccounts', busops, { limit: 1 })).json();
    const [body, mac] = token.split('.');
    // Move the cursor forward by editing its payload but keeping the original signature.
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k = payload.k.map((v: unknown) => (v === '1000001' ? '1000003' : v));
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    for (const bad of [forged, `${body}.${mac.split('').reverse().join('')}`, 'not-a-token']) {
      const res = await post('/api/getaccounts', busops, { limit: 1, token: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: 'Invalid continuation token' });
    }
  });

  it('counts and lists distinct values within what the user may see', async () => {
    expect((await post('/api/getaccounts/count', admin, {})).json()).toEqual({ status: 'SUCCESS', data: 3 });
    expect((await post('/api/getaccounts/count', busops, {})).json()).toEqual({ status: 'SUCCESS', data: 4 });
    const distinct = (await post('/api/getaccounts/distinct', viewer, { key: 'AccountName' })).json();
    expect(distinct).toEqual({ status: 'SUCCESS', data: ['Acme Fluids'] });
  });

  it('getCustomerAccounts restricts vendor staff to one customer e-mail and refuses others for customers', async () => {
    const res = await post('/api/getCustomerAccounts', busops, { customerEmail: 'viewer@acme.example' });
    expect(ids(res.json())).toEqual(['1000001']);
    const own = await post('/api/getCustomerAccounts', viewer, { customerEmail: 'VIEWER@acme.example' });
    expect(ids(own.json())).toEqual(['1000001']);
    expect(
      (await post('/api/getCustomerAccounts', viewer, { customerEmail: 'admin@acme.example' })).statusCode,
    ).toBe(403);
  });

  it('answers the single-account check with at most the requested number of rows', async () => {
    const res = (await post('/api/accounts', admin, { limit: 2 })).json();
    expect(res.data).toHaveLength(2);
    expect(ids((await post('/api/accounts', admin, { customerNumber: '1000002', limit: 2 })).json())).toEqual(
      ['1000002'],
    );
    expect(
      ids((await post('/api/accounts', viewer, { customerNumber: '1000002', limit: 2 })).json()),
    ).toEqual([]);
  });
});

describe('GET /api/getaccountinfo/{customerNumber}', () => {
  it('derives the info flags from the account data and the contact role', async () => {
    const res = await get('/api/getaccountinfo/1000001', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      data: {
        customerNumber: '1000001',
        customerName: 'Acme Fluids',
        info: expect.objectContaining({
          isPortalEdit: true,
          isPortalView: false,
          isAsc: false,
          hasElastic: 2,
          hasSSL: 1,
          hasSharedLicense: 1,
          hasNamedLicense: 0,
          hasFSA: 0,
          orgType: 'Direct',
          exportControlStatus: '',
        }),
      },
    });
    expect((await get('/api/getaccountinfo/1000001', viewer)).json().data.info).toMatchObject({
      isPortalView: true,
      isPortalEdit: false,
    });
  });

  it('gives outsiders the same 403 for a foreign account and for an account that does not exist', async () => {
    const foreign = await get('/api/getaccountinfo/1000002', viewer);
    const missing = await get('/api/getaccountinfo/9999999', viewer);
    expect(foreign.statusCode).toBe(403);
    expect(missing.statusCode).toBe(403);
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.body).not.toContain('Beta');
  });

  it('lets vendor staff read any account', async () => {
    const res = await get('/api/getaccountinfo/1000004', busops);
    expect(res.json().data.customerName).toBe('Delta 100% _under_');
  });

  it('shows the export status but blocks data calls for an export-controlled account', async () => {
    const info = await get('/api/getaccountinfo/1000003', admin);
    expect(info.json().data.info.exportControlStatus).toBe('Pending');
    const data = await get('/api/lastupdatedon?accountId=1000003', admin);
    expect(data.statusCode).toBe(403);
    expect(data.json().err).toBe(messages.exportDenied);
    expect((await get('/api/lastupdatedon?accountId=1000003', busops)).statusCode).toBe(403);
  });
});

describe('GET /api/getUserDetails', () => {
  it('returns the e-mail and roles of the signed-in user', async () => {
    expect((await get('/api/getUserDetails', admin)).json()).toEqual({
      status: 'SUCCESS',
      data: { email: 'admin@acme.example', name: expect.any(String), roles: ['user'] },
    });
    expect((await get('/api/getUserDetails', busops)).json().data.roles).toEqual(['busops']);
  });
});

describe('GET /api/lastupdatedon', () => {
  it('answers null when no usage was received and refuses outsiders', async () => {
    expect((await get('/api/lastupdatedon?accountId=1000001', admin)).json()).toEqual({
      status: 'SUCCESS',
      lastUpdatedOn: null,
    });
    expect((await get('/api/lastupdatedon?accountId=1000002', viewer)).statusCode).toBe(403);
  });
});

describe('bad requests', () => {
  it('answers malformed JSON with 400 and no stack trace', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/getaccounts',
      headers: { ...busops, 'content-type': 'application/json' },
      payload: '{"filter":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'FAILURE', err: 'Malformed JSON body', code: 'BAD_REQUEST' });
  });

  it('answers an oversized body with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/getaccounts',
      headers: { ...busops, 'content-type': 'application/json' },
      payload: JSON.stringify({ pad: 'x'.repeat(1_100_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe('FAILURE');
  });
});

describe('ACCOUNT_LIST_MAX (issue 8 §3: "Too many accounts found" never appeared)', () => {
  it('the list stops at the limit, the count does not, and /api/config tells the browser the limit', async () => {
    const limited = await createTestApp(database, { ACCOUNT_LIST_MAX: '3' });
    try {
      expect((await limited.inject('/api/config')).json().accountListMax).toBe(3);
      const filter = {
        condition: 'ANY',
        criteria: [{ name: 'AccountID', method: 'CONTAINS', value: '1', casefold: true }],
      };
      const list = await limited.inject({
        method: 'POST',
        url: '/api/getaccounts',
        headers: busops,
        payload: { filter },
      });
      expect(list.json().data).toHaveLength(3);
      const count = await limited.inject({
        method: 'POST',
        url: '/api/getaccounts/count',
        headers: busops,
        payload: { filter },
      });
      // The browser compares this count with accountListMax (count >= max: "Too many accounts found.").
      expect(count.json().data).toBeGreaterThanOrEqual(4);
    } finally {
      await limited.close();
    }
  });
});
