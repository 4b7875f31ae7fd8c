import { accountsApi } from '@lp/contract/accounts/api';
import { messages } from '@lp/contract/common/errors';
import type { Operation } from '@lp/contract/common/operation';
import { platformApi } from '@lp/contract/platform/api';
import { prefsApi } from '@lp/contract/prefs/api';
import type { FilterRule } from '@lp/contract/query/schemas';
import { userApi } from '@lp/contract/user/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { anonymous, apiOf, apiTest, callName } from '../../../test/api-fixture.ts';

const it = apiTest
  /**
   * Four accounts of their own (the cast's would change the lists): a customer administrator of Acme and Beta
   * (viewer of Gamma), a viewer of Acme only, business operations, and a customer user without accounts.
   */
  .extend('people', { scope: 'file' }, async ({ database, signIn }) => {
    const db = database.db;
    await buildAccount(db, { customerNumber: '1000001', name: 'Acme Fluids' });
    await buildAccount(db, { customerNumber: '1000002', name: 'Beta Structures', orgType: 'Channel' });
    await buildAccount(db, {
      customerNumber: '1000003',
      name: 'Gamma Optics',
      exportControlStatus: 'Pending',
    });
    await buildAccount(db, { customerNumber: '1000004', name: 'Delta 100% _under_' });
    await addContact(db, '1000001', 'admin@acme.example', contactRoles.admin);
    await addContact(db, '1000002', 'admin@acme.example', contactRoles.admin);
    await addContact(db, '1000003', 'admin@acme.example', contactRoles.viewer);
    await addContact(db, '1000001', 'viewer@acme.example', contactRoles.viewer);
    await buildEntitlement(db, '1000001', { kind: 'ELASTIC', licenseModel: 'Elastic-AEU' });
    await buildEntitlement(db, '1000001', { kind: 'ELASTIC', licenseModel: 'Elastic-AEU' });
    await buildEntitlement(db, '1000001', { kind: 'SSL', licenseType: 'shared' });
    await buildEntitlement(db, '1000001', { kind: 'FSA', licenseModel: 'FSA', state: 'Expired' });
    return {
      admin: await signIn('admin@acme.example'),
      viewer: await signIn('viewer@acme.example'),
      busops: await signIn('busops@demo.example', { vendorRoles: ['busops'] }),
      nobody: await signIn('nobody@acme.example'),
    };
  });

const ids = (body: { data: { AccountID: string }[] }) => body.data.map((r) => r.AccountID);
const info = (customerNumber: string) => ({ params: { customerNumber } });
const lastUpdatedOn = (accountId: string) => ({ query: { accountId } });

describe('authentication', () => {
  const calls: [Operation, unknown][] = [
    [accountsApi.page, {}],
    [accountsApi.count, {}],
    [accountsApi.distinct, {}],
    [accountsApi.customerAccounts, {}],
    [accountsApi.check, {}],
    [accountsApi.info, info('1000001')],
    [platformApi.lastUpdatedOn, undefined],
    [userApi.details, undefined],
    [platformApi.buildInfo, undefined],
    [prefsApi.list, undefined],
    [prefsApi.save, {}],
  ];
  it.for(calls.map(([operation, input]) => ({ call: callName(operation, input), operation, input })))(
    'anonymous $call gets 401 and no data',
    async ({ operation, input }, { api }) => {
      const refusal = await api.refused(anonymous, operation, input, 401);
      expect(refusal).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
    },
  );
});

describe('listAccounts', () => {
  it('lists only the accounts a customer user is a contact of', async ({
    api,
    people: { admin, nobody },
  }) => {
    expect(ids(await api.ok(admin, accountsApi.page, {}))).toEqual(['1000001', '1000002', '1000003']);
    expect(ids(await api.ok(nobody, accountsApi.page, {}))).toEqual([]);
  });

  it('lists every account for vendor staff and pages with continuation tokens', async ({
    api,
    people: { busops },
  }) => {
    const first = await api.ok(busops, accountsApi.page, { limit: 3 });
    expect(ids(first)).toEqual(['1000001', '1000002', '1000003']);
    expect(first.token).toEqual(expect.any(String));
    const second = await api.ok(busops, accountsApi.page, { limit: 3, token: first.token });
    expect(ids(second)).toEqual(['1000004']);
    expect(second.token).toBeNull();
  });

  it('filters by name case-insensitively and treats wildcards literally', async ({
    api,
    people: { busops },
  }) => {
    const named = async (value: string) =>
      ids(
        await api.ok(busops, accountsApi.page, {
          filter: {
            condition: 'ANY',
            criteria: [{ name: 'AccountName', method: 'CONTAINS', value, casefold: true }],
          },
        }),
      );
    expect(await named('BETA')).toEqual(['1000002']);
    expect(await named('100%')).toEqual(['1000004']);
    expect(await named('_')).toEqual(['1000004']);
  });

  it('refuses a filter that is not by account ID or name', async ({ api, people: { busops } }) => {
    for (const criteria of [
      [{ name: 'Secret', method: 'CONTAINS', value: 'x' }],
      [{ name: 'AccountName', method: 'CONTAINS', value: '   ' }],
      [{ name: 'AccountID', method: '>', value: '1' }],
    ]) {
      const refusal = await api.refused(
        busops,
        accountsApi.page,
        { filter: { condition: 'ALL', criteria } },
        400,
      );
      expect(refusal).toMatchObject({ status: 'FAILURE', err: messages.invalidAccountFilter });
    }
  });

  it('rejects wrong types and over-limit requests with a clear 400', async ({ api, people: { busops } }) => {
    const refusal = await api.refused(busops, accountsApi.page, { limit: 'ten' }, 400);
    expect(refusal.err).toMatch(/limit/);
    await api.refused(busops, accountsApi.page, { limit: 501 }, 400);
  });

  it('rejects a tampered continuation token', async ({ api, people: { busops } }) => {
    const { token } = await api.ok(busops, accountsApi.page, { limit: 1 });
    const [body, mac] = token!.split('.') as [string, string];
    // Move the cursor forward by editing its payload but keeping the original signature.
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k = payload.k.map((v: unknown) => (v === '1000001' ? '1000003' : v));
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    for (const bad of [forged, `${body}.${mac.split('').reverse().join('')}`, 'not-a-token']) {
      const refusal = await api.refused(busops, accountsApi.page, { limit: 1, token: bad }, 400);
      expect(refusal).toMatchObject({ status: 'FAILURE', err: 'Invalid continuation token' });
    }
  });

  it('counts and lists distinct values within what the user may see', async ({
    api,
    people: { admin, viewer, busops },
  }) => {
    expect(await api.ok(admin, accountsApi.count, {})).toEqual({ status: 'SUCCESS', data: 3 });
    expect(await api.ok(busops, accountsApi.count, {})).toEqual({ status: 'SUCCESS', data: 4 });
    const distinct = await api.ok(viewer, accountsApi.distinct, { key: 'AccountName' });
    expect(distinct).toEqual({ status: 'SUCCESS', data: ['Acme Fluids'] });
  });

  it('getCustomerAccounts restricts vendor staff to one customer e-mail and refuses others for customers', async ({
    api,
    people: { viewer, busops },
  }) => {
    const res = await api.ok(busops, accountsApi.customerAccounts, { customerEmail: 'viewer@acme.example' });
    expect(ids(res)).toEqual(['1000001']);
    const own = await api.ok(viewer, accountsApi.customerAccounts, { customerEmail: 'VIEWER@acme.example' });
    expect(ids(own)).toEqual(['1000001']);
    await api.refused(viewer, accountsApi.customerAccounts, { customerEmail: 'admin@acme.example' }, 403);
  });

  it('answers the single-account check with at most the requested number of rows', async ({
    api,
    people: { admin, viewer },
  }) => {
    expect((await api.ok(admin, accountsApi.check, { limit: 2 })).data).toHaveLength(2);
    expect(ids(await api.ok(admin, accountsApi.check, { customerNumber: '1000002', limit: 2 }))).toEqual([
      '1000002',
    ]);
    expect(ids(await api.ok(viewer, accountsApi.check, { customerNumber: '1000002', limit: 2 }))).toEqual([]);
  });
});

describe('getAccountInfo', () => {
  it('derives the info flags from the account data and the contact role', async ({
    api,
    people: { admin, viewer },
  }) => {
    expect(await api.ok(admin, accountsApi.info, info('1000001'))).toEqual({
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
    expect((await api.ok(viewer, accountsApi.info, info('1000001'))).data.info).toMatchObject({
      isPortalView: true,
      isPortalEdit: false,
    });
  });

  it('gives outsiders the same 403 for a foreign account and for an account that does not exist', async ({
    api,
    people: { viewer },
  }) => {
    const foreign = await api.refused(viewer, accountsApi.info, info('1000002'), 403);
    const missing = await api.refused(viewer, accountsApi.info, info('9999999'), 403);
    expect(foreign).toEqual(missing);
    expect(JSON.stringify(foreign)).not.toContain('Beta');
  });

  it('lets vendor staff read any account', async ({ api, people: { busops } }) => {
    const res = await api.ok(busops, accountsApi.info, info('1000004'));
    expect(res.data.customerName).toBe('Delta 100% _under_');
  });

  it('shows the export status but blocks data calls for an export-controlled account', async ({
    api,
    people: { admin, busops },
  }) => {
    const res = await api.ok(admin, accountsApi.info, info('1000003'));
    expect(res.data.info.exportControlStatus).toBe('Pending');
    const data = await api.refused(admin, platformApi.lastUpdatedOn, lastUpdatedOn('1000003'), 403);
    expect(data.err).toBe(messages.exportDenied);
    await api.refused(busops, platformApi.lastUpdatedOn, lastUpdatedOn('1000003'), 403);
  });
});

describe('getUserDetails', () => {
  it('returns the e-mail and roles of the signed-in user', async ({ api, people: { admin, busops } }) => {
    expect(await api.ok(admin, userApi.details, undefined)).toEqual({
      status: 'SUCCESS',
      data: { email: 'admin@acme.example', name: expect.any(String), roles: ['user'] },
    });
    expect((await api.ok(busops, userApi.details, undefined)).data.roles).toEqual(['busops']);
  });
});

describe('lastUpdatedOn', () => {
  it('answers null when no usage was received and refuses outsiders', async ({
    api,
    people: { admin, viewer },
  }) => {
    expect(await api.ok(admin, platformApi.lastUpdatedOn, lastUpdatedOn('1000001'))).toEqual({
      status: 'SUCCESS',
      lastUpdatedOn: null,
    });
    await api.refused(viewer, platformApi.lastUpdatedOn, lastUpdatedOn('1000002'), 403);
  });
});

describe('bad requests', () => {
  // Raw bodies: what a broken client sends, not what the operation declares.
  it('answers malformed JSON with 400 and no stack trace', async ({ api, people: { busops } }) => {
    const res = await api.call(busops, accountsApi.page, '{"filter":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'FAILURE', err: 'Malformed JSON body', code: 'BAD_REQUEST' });
  });

  it('answers an oversized body with 413', async ({ api, people: { busops } }) => {
    const res = await api.call(busops, accountsApi.page, JSON.stringify({ pad: 'x'.repeat(1_100_000) }), {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().status).toBe('FAILURE');
  });
});

describe('ACCOUNT_LIST_MAX (issue 8 §3: "Too many accounts found" never appeared)', () => {
  it('the list stops at the limit, the count does not, and /api/config tells the browser the limit', async ({
    database,
    people: { busops },
  }) => {
    const limited = await createTestApp(database, { ACCOUNT_LIST_MAX: '3' });
    try {
      const api = apiOf(limited);
      expect((await api.ok(anonymous, platformApi.config, undefined)).accountListMax).toBe(3);
      const filter: FilterRule = {
        condition: 'ANY',
        criteria: [{ name: 'AccountID', method: 'CONTAINS', value: '1', casefold: true }],
      };
      expect((await api.ok(busops, accountsApi.page, { filter })).data).toHaveLength(3);
      const count = await api.ok(busops, accountsApi.count, { filter });
      // The browser compares this count with accountListMax (count >= max: "Too many accounts found.").
      expect(count.data).toBeGreaterThanOrEqual(4);
    } finally {
      await limited.close();
    }
  });
});
