import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

const { admin, viewer, coordinator } = contactRoles;
const CN = '3000001';
type Headers = Record<string, string>;
type Contact = { email: string; role: string };

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let asc: Headers;
let outsider: Headers;
let busops: Headers;
let support: Headers;
let sales: Headers;

const initial: Contact[] = [
  { email: 'asc@acme.example', role: coordinator },
  { email: 'boss@acme.example', role: admin },
  { email: 'reader@acme.example', role: viewer },
];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await buildAccount(database.db, { customerNumber: CN, name: 'Acme' });
  await buildAccount(database.db, { customerNumber: '3000002', name: 'Other' });
  for (const c of initial) await addContact(database.db, CN, c.email, c.role);
  await addContact(database.db, '3000002', 'outsider@other.example', admin);
  boss = (await signInAs(database.db, 'boss@acme.example')).headers;
  reader = (await signInAs(database.db, 'reader@acme.example')).headers;
  asc = (await signInAs(database.db, 'asc@acme.example')).headers;
  outsider = (await signInAs(database.db, 'outsider@other.example')).headers;
  busops = (await signInAs(database.db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  support = (await signInAs(database.db, 'help@vendor.example', { vendorRoles: ['support'] })).headers;
  sales = (await signInAs(database.db, 'sell@vendor.example', { vendorRoles: ['sales'] })).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const get = (headers: Headers | undefined, customerNumber = CN) =>
  app.inject({ method: 'POST', url: '/api/getportalaccess', headers, payload: { customerNumber } });
const set = (
  headers: Headers | undefined,
  newContacts: Contact[],
  oldContacts: Contact[],
  customerNumber = CN,
) =>
  app.inject({
    method: 'POST',
    url: '/api/setportalaccess',
    headers,
    payload: { customerNumber, newContacts, oldContacts },
  });
const stored = async (): Promise<Contact[]> => (await get(busops)).json().data;
const infoStatus = async (headers: Headers) =>
  (await app.inject({ method: 'GET', url: `/api/getaccountinfo/${CN}`, headers })).statusCode;

describe('reading portal access', () => {
  it('lists the contacts, coordinator first, for contacts and vendor staff', async () => {
    for (const h of [boss, reader, busops]) {
      const res = await get(h);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'SUCCESS', err: null, data: initial });
    }
  });

  it('refuses anonymous callers (401), outsiders (403) and bad bodies (400)', async () => {
    expect((await get(undefined)).statusCode).toBe(401);
    expect((await set(undefined, initial, initial)).statusCode).toBe(401);
    const out = await get(outsider);
    expect(out.statusCode).toBe(403);
    expect(out.json()).toMatchObject({
      status: 'FAILURE',
      err: 'You do not have enough permissions to view this page.',
    });
    expect((await set(outsider, initial, initial)).statusCode).toBe(403);
    const bad = await app.inject({ method: 'POST', url: '/api/getportalaccess', headers: boss, payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toMatch(/^Invalid request: customerNumber/);
    const badSet = await app.inject({
      method: 'POST',
      url: '/api/setportalaccess',
      headers: boss,
      payload: { customerNumber: CN, newContacts: 'x', oldContacts: [] },
    });
    expect(badSet.statusCode).toBe(400);
    expect(badSet.json().err).toMatch(/^Invalid request: newContacts/);
  });
});

describe('saving portal access', () => {
  it('refuses viewers and sales staff with 403 and changes nothing', async () => {
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

  it('answers each invalid row with the spec message (400) and changes nothing', async () => {
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

  it('protects the Support Coordinator contact from being added, changed or removed, even by vendor staff', async () => {
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

  it('refuses a save whose starting list is no longer the stored one (409), overwriting nothing', async () => {
    const stale = initial.filter((c) => c.email !== 'reader@acme.example');
    const res = await set(boss, [...stale, { email: 'late@acme.example', role: viewer }], stale);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      status: 'FAILURE',
      err: 'The contact list was changed by someone else. Reload and try again.',
    });
    expect(await stored()).toEqual(initial);
  });

  it('lets one of two saves from the same list win and refuses the other', async () => {
    const a = set(boss, [...initial, { email: 'first@acme.example', role: viewer }], initial);
    const b = set(busops, [...initial, { email: 'second@acme.example', role: viewer }], initial);
    const codes = [(await a).statusCode, (await b).statusCode].sort();
    expect(codes).toEqual([200, 409]);
    const now = await stored();
    expect(now).toHaveLength(4);
    // Put the list back for the following tests.
    expect((await set(busops, initial, now)).statusCode).toBe(200);
  });

  it('an added contact gains access at once and a removed one loses it (the contacts are the authorization data)', async () => {
    const newcomer = (await signInAs(database.db, 'newcomer@acme.example')).headers;
    expect(await infoStatus(newcomer)).toBe(403);

    // Old list given in another order and e-mail case: it is compared as a set.
    const old = [...initial].reverse().map((c) => ({ ...c, email: c.email.toUpperCase() }));
    const added = await set(boss, [...initial, { email: ' NewComer@Acme.Example ', role: admin }], old);
    expect(added.statusCode).toBe(200);
    expect(added.json().status).toBe('SUCCESS');
    const afterAdd = await stored();
    expect(afterAdd).toContainEqual({ email: 'newcomer@acme.example', role: admin });
    expect(await infoStatus(newcomer)).toBe(200);
    const info = (
      await app.inject({ method: 'GET', url: `/api/getaccountinfo/${CN}`, headers: newcomer })
    ).json();
    expect(info.data.info.isPortalEdit).toBe(true);

    // The newcomer, now an administrator, removes the reader; the reader is locked out on the next call.
    const withoutReader = afterAdd.filter((c) => c.email !== 'reader@acme.example');
    expect((await set(newcomer, withoutReader, afterAdd)).statusCode).toBe(200);
    expect(await infoStatus(reader)).toBe(403);
    expect((await get(reader)).statusCode).toBe(403);
  });

  it('lets the support coordinator save and refuses view-only vendor support staff (decision 022)', async () => {
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
