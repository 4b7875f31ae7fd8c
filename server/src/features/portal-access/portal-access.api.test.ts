import { accountsApi } from '@lp/contract/accounts/api';
import { messages } from '@lp/contract/common/errors';
import { portalAccessApi } from '@lp/contract/portal-access/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller } from '../../../test/api-fixture.ts';

const { admin, viewer, coordinator } = contactRoles;
const CN = acme.customerNumber;
type Contact = { email: string; role: string };

const initial: Contact[] = [
  { email: 'asc@acme.example', role: coordinator },
  { email: 'boss@acme.example', role: admin },
  { email: 'reader@acme.example', role: viewer },
];

const test = apiTest
  /** Acme's coordinator (the cast brings its admin and viewer); auto: Acme has the contacts of `initial` first. */
  .extend('asc', { scope: 'file', auto: true }, async ({ database, cast: _accounts, signIn }) => {
    await addContact(database.db, CN, 'asc@acme.example', coordinator);
    return signIn('asc@acme.example');
  })
  /** The calls of this feature as the tests make them. */
  .extend('calls', { scope: 'file' }, async ({ api, cast }) => ({
    get: (who: Caller, customerNumber: string = CN) => api.call(who, portalAccessApi.get, { customerNumber }),
    set: (who: Caller, newContacts: Contact[], oldContacts: Contact[], customerNumber: string = CN) =>
      api.call(who, portalAccessApi.set, { customerNumber, newContacts, oldContacts }),
    stored: async (): Promise<Contact[]> =>
      (await api.ok(cast.busops, portalAccessApi.get, { customerNumber: CN })).data,
    infoStatus: async (who: Caller) =>
      (await api.call(who, accountsApi.info, { params: { customerNumber: CN } })).statusCode,
  }));

describe('reading portal access', () => {
  test('lists the contacts, coordinator first, for contacts and vendor staff', async ({
    cast: { boss, reader, busops },
    calls: { get },
  }) => {
    for (const h of [boss, reader, busops]) {
      const res = await get(h);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'SUCCESS', err: null, data: initial });
    }
  });

  test('refuses anonymous callers (401), outsiders (403) and bad bodies (400)', async ({
    api,
    cast: { boss, outsider },
    calls: { get, set },
  }) => {
    expect((await get(anonymous)).statusCode).toBe(401);
    expect((await set(anonymous, initial, initial)).statusCode).toBe(401);
    const out = await get(outsider);
    expect(out.statusCode).toBe(403);
    expect(out.json()).toMatchObject({
      status: 'FAILURE',
      err: 'You do not have enough permissions to view this page.',
    });
    expect((await set(outsider, initial, initial)).statusCode).toBe(403);
    const bad = await api.call(boss, portalAccessApi.get, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toMatch(/^Invalid request: customerNumber/);
    const badSet = await api.call(boss, portalAccessApi.set, {
      customerNumber: CN,
      newContacts: 'x',
      oldContacts: [],
    });
    expect(badSet.statusCode).toBe(400);
    expect(badSet.json().err).toMatch(/^Invalid request: newContacts/);
  });
});

describe('saving portal access', () => {
  test('refuses viewers and sales staff with 403 and changes nothing', async ({
    cast: { reader, sales },
    calls: { set, stored },
  }) => {
    const next = [...initial, { email: 'x@acme.example', role: viewer }];
    for (const h of [reader, sales]) {
      const res = await set(h, next, initial);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        status: 'FAILURE',
        err: 'You do not have enough permissions for such operation.',
      });
    }
    expect(await stored()).toEqual(initial);
  });

  test('answers each invalid row with the spec message (400) and changes nothing', async ({
    cast: { boss },
    calls: { set, stored },
  }) => {
    const cases: [Contact, string][] = [
      [{ email: '', role: viewer }, 'Email is required.'],
      [{ email: '   ', role: viewer }, 'Email is required.'],
      [{ email: 'not-an-email', role: viewer }, 'Incorrect Email Format.'],
      [
        { email: 'someone@gmail.com', role: viewer },
        'Free domain is not allowed. Use a corporate e-mail address.',
      ],
      [
        { email: 'someone@mailinator.com', role: admin },
        'Free domain is not allowed. Use a corporate e-mail address.',
      ],
      [{ email: 'new@acme.example', role: '' }, 'Role is required.'],
      [
        { email: 'new@acme.example', role: 'Owner' },
        'Role must be Licensing Portal Administrator or Licensing Portal Viewer.',
      ],
      [{ email: 'BOSS@acme.example', role: viewer }, 'This e-mail address is already in the list.'],
    ];
    for (const [row, err] of cases) {
      const res = await set(boss, [...initial, row], initial);
      expect(res.statusCode, row.email).toBe(400);
      expect(res.json()).toEqual({ status: 'FAILURE', err, code: 'BAD_REQUEST' });
    }
    expect(await stored()).toEqual(initial);
  });

  test('protects the Support Coordinator contact from being added, changed or removed, even by vendor staff', async ({
    cast: { busops },
    calls: { set, stored },
  }) => {
    const attempts: Contact[][] = [
      initial.filter((c) => c.role !== coordinator),
      [{ email: 'asc@acme.example', role: admin }, ...initial.slice(1)],
      [...initial, { email: 'asc2@acme.example', role: coordinator }],
    ];
    for (const next of attempts) {
      const res = await set(busops, next, initial);
      expect(res.statusCode).toBe(400);
      expect(res.json().err).toBe('The Support Coordinator contact cannot be added, changed or removed.');
    }
    expect(await stored()).toEqual(initial);
  });

  test('refuses a save whose starting list is no longer the stored one (409), overwriting nothing', async ({
    cast: { boss },
    calls: { set, stored },
  }) => {
    const stale = initial.filter((c) => c.email !== 'reader@acme.example');
    const res = await set(boss, [...stale, { email: 'late@acme.example', role: viewer }], stale);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      status: 'FAILURE',
      err: 'The contact list was changed by someone else. Reload and try again.',
    });
    expect(await stored()).toEqual(initial);
  });

  test('lets one of two saves from the same list win and refuses the other', async ({
    cast: { boss, busops },
    calls: { set, stored },
  }) => {
    const a = set(boss, [...initial, { email: 'first@acme.example', role: viewer }], initial);
    const b = set(busops, [...initial, { email: 'second@acme.example', role: viewer }], initial);
    const codes = [(await a).statusCode, (await b).statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const now = await stored();
    expect(now).toHaveLength(4);
    // Put the list back for the following tests.
    expect((await set(busops, initial, now)).statusCode).toBe(200);
  });

  test('an added contact gains access at once and a removed one loses it (the contacts are the authorization data)', async ({
    api,
    signIn,
    cast: { boss, reader },
    calls: { get, set, stored, infoStatus },
  }) => {
    const newcomer = await signIn('newcomer@acme.example');
    expect(await infoStatus(newcomer)).toBe(403);

    // Old list given in another order and e-mail case: it is compared as a set.
    const old = [...initial].reverse().map((c) => ({ ...c, email: c.email.toUpperCase() }));
    const added = await set(boss, [...initial, { email: ' NewComer@Acme.Example ', role: admin }], old);
    expect(added.statusCode).toBe(200);
    expect(added.json().status).toBe('SUCCESS');
    const afterAdd = await stored();
    expect(afterAdd).toContainEqual({ email: 'newcomer@acme.example', role: admin });
    expect(await infoStatus(newcomer)).toBe(200);
    const info = await api.ok(newcomer, accountsApi.info, { params: { customerNumber: CN } });
    expect(info.data.info.isPortalEdit).toBe(true);

    // The newcomer, now an administrator, removes the reader; the reader is locked out on the next call.
    const withoutReader = afterAdd.filter((c) => c.email !== 'reader@acme.example');
    expect((await set(newcomer, withoutReader, afterAdd)).statusCode).toBe(200);
    expect(await infoStatus(reader)).toBe(403);
    expect((await get(reader)).statusCode).toBe(403);
  });

  test('lets the support coordinator save and refuses view-only vendor support staff (decision 022)', async ({
    asc,
    cast: { support },
    calls: { set, stored },
  }) => {
    const current = await stored();
    const withSupport = [...current, { email: 'by-support@acme.example', role: viewer }];
    const bySupport = await set(support, withSupport, current);
    expect(bySupport.statusCode).toBe(403);
    expect(bySupport.json()).toEqual({ status: 'FAILURE', err: messages.noPermission, code: 'FORBIDDEN' });
    expect(await stored()).toEqual(current);
    const withAsc = [...current, { email: 'by-asc@acme.example', role: viewer }];
    expect((await set(asc, withAsc, current)).statusCode).toBe(200);
    expect((await stored()).map((c) => c.email)).toContain('by-asc@acme.example');
  });
});
