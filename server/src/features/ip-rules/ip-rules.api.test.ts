import { ipRulesApi } from '@lp/contract/ip-rules/api';
import { describe, expect } from 'vitest';
import { buildLicenseServer } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const CLS = 'ELASTIC-HOST-1';
type Rule = { rulename: string; ipaddress: string };

/** The calls of this feature as the tests make them, with the account and server they usually name. */
const test = apiTest.extend('calls', { scope: 'file' }, async ({ api, cast }) => ({
  servers: (who: Caller, customerNumber: string = CN) =>
    api.call(who, ipRulesApi.servers, { customerNumber, customername: 'Acme', server: '' }),
  getIps: (who: Caller, clsId = CLS, customerNumber: string = CN) =>
    api.call(who, ipRulesApi.get, { clsId, customerNumber }),
  setIps: (who: Caller, whitelist: Rule[], clsId = CLS, customerNumber: string = CN) =>
    api.call(who, ipRulesApi.set, { customerNumber, clsId, whitelist }),
  current: async () =>
    (await api.ok(cast.busops, ipRulesApi.get, { clsId: CLS, customerNumber: CN })).data.whitelist,
}));

test.beforeAll(async ({ database, cast: _accounts }) => {
  const server = (customerNumber: string, hostIdentity: string, kind: string, state = 'Active') =>
    buildLicenseServer(database.db, customerNumber, {
      hostIdentity,
      kind,
      state,
      alias: `${hostIdentity}-alias`,
    });
  await server(CN, CLS, 'elastic');
  await server(CN, 'OLD-ELASTIC', 'elastic', 'Inactive');
  await server(CN, 'ONPREM-1', 'flexlm');
  await server(OTHER, 'OTHER-CLS', 'elastic');
});

describe('activated elastic servers', () => {
  test("lists the account's active elastic servers only", async ({
    cast: { reader },
    calls: { servers },
  }) => {
    const res = await servers(reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      data: [{ DeviceID: CLS, Alias: `${CLS}-alias` }],
    });
  });

  test('refuses anonymous (401), outsiders (403) and bad bodies (400)', async ({
    api,
    cast: { boss, outsider },
    calls: { servers },
  }) => {
    expect((await servers(anonymous)).statusCode).toBe(401);
    expect((await servers(outsider)).statusCode).toBe(403);
    const bad = await api.call(boss, ipRulesApi.servers, { customerNumber: 5 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toMatch(/^Invalid request: customerNumber/);
  });
});

describe('reading the allow-list', () => {
  test('starts empty and is readable by viewers', async ({ cast: { reader }, calls: { getIps } }) => {
    const res = await getIps(reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { whitelist: [] } });
  });

  test("refuses anonymous (401), outsiders (403), other accounts' and inactive servers (404)", async ({
    api,
    cast: { boss, outsider },
    calls: { getIps },
  }) => {
    expect((await getIps(anonymous)).statusCode).toBe(401);
    expect((await getIps(outsider)).statusCode).toBe(403);
    // An outsider naming their own server under our account number learns nothing either.
    expect((await getIps(outsider, 'OTHER-CLS')).statusCode).toBe(403);
    for (const cls of ['OTHER-CLS', 'OLD-ELASTIC', 'ONPREM-1', 'made-up']) {
      const res = await getIps(boss, cls);
      expect(res.statusCode, cls).toBe(404);
      expect(res.json().status).toBe('FAILURE');
    }
    const bad = await api.call(boss, ipRulesApi.get, { customerNumber: CN });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toMatch(/^Invalid request: clsId/);
  });
});

describe('saving the allow-list', () => {
  test('stores the list in order with names trimmed and addresses normalised', async ({
    cast: { boss, reader },
    calls: { getIps, setIps, current },
  }) => {
    const res = await setIps(boss, [
      { rulename: ' Office ', ipaddress: ' 192.168.10.7 ' },
      { rulename: 'VPN range', ipaddress: '10.20.30.40/16' },
      { rulename: 'IPv6 host', ipaddress: '2001:DB8:0:0:0:0:0:1/128' },
      { rulename: 'IPv6 net', ipaddress: '2001:db8:abcd:12::/48' },
    ]);
    expect(res.statusCode).toBe(200);
    const expected = [
      { rulename: 'Office', ipaddress: '192.168.10.7' },
      { rulename: 'VPN range', ipaddress: '10.20.0.0/16' },
      { rulename: 'IPv6 host', ipaddress: '2001:db8::1' },
      { rulename: 'IPv6 net', ipaddress: '2001:db8:abcd::/48' },
    ];
    expect(res.json()).toEqual({ status: 'SUCCESS', err: null, data: { whitelist: expected } });
    expect(await current()).toEqual(expected);
    // A viewer sees the same list.
    expect((await getIps(reader)).json().data.whitelist).toEqual(expected);
  });

  test('refuses bad names, bad addresses, bad prefixes and duplicates with 400, keeping the stored list', async ({
    api,
    cast: { boss },
    calls: { setIps, current },
  }) => {
    const before = await current();
    const cases: [Rule[], RegExp][] = [
      [[{ rulename: '  ', ipaddress: '1.2.3.4' }], /^Rule 1: Rule Name is required\.$/],
      [[{ rulename: 'x'.repeat(101), ipaddress: '1.2.3.4' }], /^Rule 1: Rule Name must be at most 100/],
      [[{ rulename: 'a', ipaddress: '' }], /^Rule 1: IP Address is required\.$/],
      [[{ rulename: 'a', ipaddress: '300.1.1.1' }], /^Rule 1: Enter an IPv4 or IPv6 address/],
      [[{ rulename: 'a', ipaddress: '10.0.0.0/33' }], /^Rule 1: Enter an IPv4 or IPv6 address/],
      [[{ rulename: 'a', ipaddress: '2001:db8::/129' }], /^Rule 1: Enter an IPv4 or IPv6 address/],
      [
        [
          { rulename: 'a', ipaddress: '10.1.0.0/16' },
          { rulename: 'b', ipaddress: '10.1.2.3/16' },
        ],
        /^Rule 2: This IP address is already in the list\.$/,
      ],
    ];
    for (const [whitelist, err] of cases) {
      const res = await setIps(boss, whitelist);
      expect(res.statusCode).toBe(400);
      expect(res.json().err).toMatch(err);
    }
    const tooMany = Array.from({ length: 501 }, (_, i) => ({
      rulename: `r${i}`,
      ipaddress: `10.0.${Math.floor(i / 256)}.${i % 256}`,
    }));
    const res = await setIps(boss, tooMany);
    expect(res.statusCode).toBe(400);
    expect(res.json().err).toBe('At most 500 rules are allowed.');
    const notList = await api.call(boss, ipRulesApi.set, { customerNumber: CN, clsId: CLS, whitelist: {} });
    expect(notList.statusCode).toBe(400);
    expect(notList.json().err).toMatch(/^Invalid request: whitelist/);
    expect(await current()).toEqual(before);
  });

  test('refuses view-only users (403), outsiders (403), anonymous (401) and unknown servers (404)', async ({
    cast: { boss, reader, outsider },
    calls: { setIps, current },
  }) => {
    const before = await current();
    const rule = [{ rulename: 'x', ipaddress: '8.8.8.8' }];
    const viewerRes = await setIps(reader, rule);
    expect(viewerRes.statusCode).toBe(403);
    expect(viewerRes.json().err).toBe('You do not have enough permissions for such operation.');
    expect((await setIps(outsider, rule)).statusCode).toBe(403);
    expect((await setIps(anonymous, rule)).statusCode).toBe(401);
    expect((await setIps(boss, rule, 'OTHER-CLS')).statusCode).toBe(404);
    expect(await current()).toEqual(before);
  });

  test('an empty list removes every rule (all addresses allowed again); busops may save', async ({
    cast: { busops },
    calls: { setIps, current },
  }) => {
    expect((await setIps(busops, [])).statusCode).toBe(200);
    expect(await current()).toEqual([]);
  });
});
