import { scimApi } from '@lp/contract/scim/api';
import { webSeatsApi } from '@lp/contract/web-seats/api';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { buildEntitlement, buildProduct, dayFromToday } from '../../../harness/factories.ts';
import { acme, apiTest, other } from '../../../test/api-fixture.ts';
import { auditLog } from '../../../test/audit-entries.ts';
import type { Db } from '../../db/database.ts';
import { webLeases, webNamedSeats, webUsers } from '../../db/schema.ts';

/*
 * Issue 24 §3: the SCIM 2.0 endpoint of an account, driven as RFC 7644's examples, Entra ID and Okta send it
 * (their documented provisioning requests), and its tokens through the session API.
 */

const CN = acme.customerNumber;
/** A Named User pool of 2 seats, given to a SCIM group in the seats test. */
const NAMED = 'SCIM-NU';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Resource = Record<string, unknown> & { id: string; meta: { version: string; location: string } };

const test = apiTest.extend('scim', { scope: 'file' }, async ({ api, app, cast: { boss }, database }) => {
  const { data } = await api.ok(boss, scimApi.issue, { customerNumber: CN, name: 'Entra ID' });
  /** A SCIM request of the account (or another's `path`), with the issued token unless another is given. */
  const send = (
    method: Method,
    path: string,
    body?: unknown,
    options: { token?: string; raw?: string; headers?: Record<string, string> } = {},
  ) =>
    app.inject({
      method,
      url: path.startsWith('/scim/') ? path : `/scim/v2/${CN}${path}`,
      headers: {
        authorization: `Bearer ${options.token ?? data.token}`,
        ...((body !== undefined || options.raw !== undefined) && { 'content-type': 'application/scim+json' }),
        ...options.headers,
      },
      payload: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
  /** Expects `status` and answers the SCIM body. */
  const expectScim = async (method: Method, path: string, body: unknown, status: number) => {
    const res = await send(method, path, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-type']).toBe('application/scim+json; charset=utf-8');
    return res.json();
  };
  return {
    token: data.token,
    db: database.db,
    send,
    ok: (method: Method, path: string, body?: unknown, status = 200) =>
      expectScim(method, path, body, status) as Promise<Resource>,
    refused: async (method: Method, path: string, body: unknown, status: number) => {
      const error = await expectScim(method, path, body, status);
      expect(error).toMatchObject({ schemas: [ERROR], status: String(status) });
      expect(typeof error.detail).toBe('string');
      return error as { status: string; scimType?: string; detail: string };
    },
    list: async (query: string) =>
      (await expectScim('GET', query, undefined, 200)) as {
        schemas: string[];
        totalResults: number;
        startIndex: number;
        itemsPerPage: number;
        Resources: Resource[];
      },
  };
});

const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });
const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  ...extra,
});

const stateOf = async (db: Db, id: string) =>
  (await db.select({ state: webUsers.state }).from(webUsers).where(eq(webUsers.id, id)))[0]?.state;

test.beforeAll(async ({ database: { db }, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Fluids - Named User', featureName: 'scim_fluids' });
  await buildEntitlement(db, CN, {
    kind: 'SSL',
    partNumber: NAMED,
    licenseModel: 'Named User',
    quantity: 2,
    startDate: dayFromToday(-10),
    endDate: dayFromToday(300),
  });
});

describe('SCIM tokens through the session API', () => {
  test('an administrator issues (the secret once), lists and revokes; the view-only user and outsiders get 403', async ({
    api,
    database: { db },
    cast: { boss, reader, outsider },
    scim: { send },
  }) => {
    const log = auditLog(db);
    const mark = await log.mark();
    await api.refused(reader, scimApi.issue, { customerNumber: CN, name: 'Okta' }, 403);
    await api.refused(outsider, scimApi.issue, { customerNumber: CN, name: 'Okta' }, 403);
    await api.refused(outsider, scimApi.tokens, { customerNumber: CN }, 403);
    const { data: issued } = await api.ok(boss, scimApi.issue, { customerNumber: CN, name: 'Okta' });
    expect(issued).toMatchObject({
      name: 'Okta',
      createdBy: 'boss@acme.example',
      revokedAt: null,
      endpoint: `/scim/v2/${CN}`,
    });
    expect(issued.token).toMatch(/^scim_/);
    const listed = (await api.ok(reader, scimApi.tokens, { customerNumber: CN })).data;
    expect(listed.map((t) => t.name)).toContain('Okta');
    expect(JSON.stringify(listed)).not.toContain(issued.token);

    expect((await send('GET', '/Users', undefined, { token: issued.token })).statusCode).toBe(200);
    await api.refused(reader, scimApi.revoke, { customerNumber: CN, id: issued.id }, 403);
    // Another account's administrator cannot revoke it (and learns nothing of it).
    await api.refused(outsider, scimApi.revoke, { customerNumber: other.customerNumber, id: issued.id }, 404);
    const { data: revoked } = await api.ok(boss, scimApi.revoke, { customerNumber: CN, id: issued.id });
    expect(revoked.revokedAt).not.toBeNull();
    const res = await send('GET', '/Users', undefined, { token: issued.token });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ schemas: [ERROR], status: '401' });
    // Revoking again answers it as it is.
    expect((await api.ok(boss, scimApi.revoke, { customerNumber: CN, id: issued.id })).data).toEqual(revoked);

    const entries = (await log.since(mark)).filter((e) => e.action.startsWith('scim.'));
    expect(entries.map((e) => [e.action, e.objectId, e.actorName])).toEqual([
      ['scim.token.issued', issued.id, 'boss@acme.example'],
      ['scim.token.revoked', issued.id, 'boss@acme.example'],
    ]);
    expect(JSON.stringify(entries)).not.toContain(issued.token);
  });

  test('a token works only for its own account: another account, a missing or made-up token get 401 alike', async ({
    api,
    cast: { outsider },
    scim: { send, token },
  }) => {
    const { data: theirs } = await api.ok(outsider, scimApi.issue, {
      customerNumber: other.customerNumber,
      name: 'Theirs',
    });
    const answers = await Promise.all([
      send('GET', '/Users', undefined, { token: theirs.token }),
      send('GET', `/scim/v2/${other.customerNumber}/Users`, undefined, { token }),
      send('GET', '/Users', undefined, { token: 'scim_made-up' }),
      send('GET', '/Users', undefined, { token: 'lp_not-a-scim-token' }),
      send('GET', '/scim/v2/9999999/Users', undefined, { token }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.json()).toEqual({
        schemas: [ERROR],
        status: '401',
        detail: 'A valid SCIM token of this account is required.',
      });
    }
  });
  test('ids of another account’s people and groups answer 404 to this account’s token, and nothing changes', async ({
    api,
    cast: { outsider },
    scim: { send, refused },
  }) => {
    const { data: theirs } = await api.ok(outsider, scimApi.issue, {
      customerNumber: other.customerNumber,
      name: 'Theirs',
    });
    const at = (path: string) => `/scim/v2/${other.customerNumber}${path}`;
    const made = await send('POST', at('/Users'), newUser('kept@other.example'), { token: theirs.token });
    expect(made.statusCode).toBe(201);
    const user = made.json() as { id: string };
    const group = await send(
      'POST',
      at('/Groups'),
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Theirs',
        members: [{ value: user.id }],
      },
      { token: theirs.token },
    );
    expect(group.statusCode).toBe(201);
    const { id: groupId } = group.json() as { id: string };
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', newUser('taken@acme.example')],
      ['PATCH', patch({ op: 'replace', path: 'active', value: false })],
      ['DELETE', undefined],
    ] as const) {
      await refused(method, `/Users/${user.id}`, body, 404);
      await refused(method, `/Groups/${groupId}`, method === 'PUT' ? { displayName: 'Ours now' } : body, 404);
    }
    const still = await send('GET', at(`/Users/${user.id}`), undefined, { token: theirs.token });
    expect(still.json()).toMatchObject({ userName: 'kept@other.example', active: true });
    const theirGroup = await send('GET', at(`/Groups/${groupId}`), undefined, { token: theirs.token });
    expect(theirGroup.json()).toMatchObject({ displayName: 'Theirs', members: [{ value: user.id }] });
  });
});

describe('discovery', () => {
  test('ServiceProviderConfig, ResourceTypes and Schemas describe the endpoint', async ({
    scim: { ok, list },
  }) => {
    expect(await ok('GET', '/ServiceProviderConfig')).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
      etag: { supported: true },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
    expect((await list('/ResourceTypes')).Resources.map((r) => [r.id, r.endpoint, r.schema])).toEqual([
      ['User', '/Users', USER],
      ['Group', '/Groups', GROUP],
    ]);
    expect((await list('/Schemas')).Resources.map((s) => s.id)).toEqual([USER, GROUP]);
    expect(await ok('GET', `/Schemas/${USER}`)).toMatchObject({ id: USER, name: 'User' });
  });
});

describe('Users as RFC 7644 shows them', () => {
  test('§3.3 create: 201 with Location, ETag and meta; the same userName again is 409 uniqueness', async ({
    scim: { send, refused, db },
  }) => {
    const res = await send(
      'POST',
      '/Users',
      newUser('Bjensen@Example.com', {
        externalId: 'bjensen',
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json() as Resource;
    expect(user).toMatchObject({
      schemas: [USER],
      userName: 'bjensen@example.com',
      externalId: 'bjensen',
      name: { formatted: 'Ms. Barbara J Jensen III' },
      active: true,
      emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
      meta: { resourceType: 'User', version: 'W/"1"' },
    });
    expect(res.headers.location).toBe(user.meta.location);
    expect(user.meta.location).toMatch(new RegExp(`/scim/v2/${CN}/Users/${user.id}$`));
    expect(res.headers.etag).toBe('W/"1"');
    expect(await stateOf(db, user.id)).toBe('active');
    const taken = await refused('POST', '/Users', newUser('bjensen@example.com'), 409);
    expect(taken.scimType).toBe('uniqueness');
  });

  test('§3.4.2.2 filter userName eq (without case), externalId and emails; an unknown attribute is 400 invalidFilter', async ({
    scim: { ok, list, refused },
  }) => {
    const made = await ok('POST', '/Users', newUser('filter.me@example.com', { externalId: 'ext-F1' }), 201);
    const one = await list('/Users?filter=userName eq "Filter.Me@example.com"');
    expect(one).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(one.Resources[0].id).toBe(made.id);
    expect((await list('/Users?filter=externalId eq "ext-F1"')).Resources.map((r) => r.id)).toEqual([
      made.id,
    ]);
    expect((await list('/Users?filter=emails[value eq "filter.me@example.com"]')).totalResults).toBe(1);
    expect((await list('/Users?filter=emails.value eq "filter.me@example.com"')).totalResults).toBe(1);
    expect((await list('/Users?filter=userName sw "filter." and active eq true')).totalResults).toBe(1);
    expect((await list('/Users?filter=userName eq "nobody@example.com"')).totalResults).toBe(0);
    expect((await list(`/Users?filter=id eq "not-a-uuid"`)).totalResults).toBe(0);
    expect((await refused('GET', '/Users?filter=password eq "x"', undefined, 400)).scimType).toBe(
      'invalidFilter',
    );
    expect((await refused('GET', '/Users?filter=userName eq', undefined, 400)).scimType).toBe(
      'invalidFilter',
    );
  });

  test('pagination: startIndex and count page the list; out-of-range values are bounded, non-numbers refused', async ({
    scim: { ok, list, refused },
  }) => {
    for (const n of [1, 2, 3, 4, 5]) await ok('POST', '/Users', newUser(`page-${n}@paging.example`), 201);
    const all = await list('/Users?filter=userName ew "@paging.example"');
    expect(all.totalResults).toBe(5);
    const page = await list('/Users?filter=userName ew "@paging.example"&startIndex=3&count=2');
    expect(page).toMatchObject({ totalResults: 5, startIndex: 3, itemsPerPage: 2 });
    expect(page.Resources.map((r) => r.id)).toEqual(all.Resources.slice(2, 4).map((r) => r.id));
    const unfiltered = await list('/Users?startIndex=2&count=1');
    expect(unfiltered.itemsPerPage).toBe(1);
    expect(unfiltered.totalResults).toBeGreaterThanOrEqual(5);
    expect((await list('/Users?startIndex=0&count=-4')).Resources).toEqual([]);
    expect((await list('/Users?startIndex=0&count=-4')).startIndex).toBe(1);
    expect((await refused('GET', '/Users?count=many', undefined, 400)).scimType).toBe('invalidValue');
  });

  test('PUT replaces, PATCH replaces (RFC form), DELETE removes (then 404)', async ({
    scim: { ok, send, refused, db },
  }) => {
    const made = await ok('POST', '/Users', newUser('replace.me@example.com', { displayName: 'Old' }), 201);
    const put = await ok(
      'PUT',
      `/Users/${made.id}`,
      newUser('replaced@example.com', { displayName: 'New Name' }),
    );
    expect(put).toMatchObject({
      userName: 'replaced@example.com',
      displayName: 'New Name',
      meta: { version: 'W/"2"' },
    });
    const patched = await ok(
      'PATCH',
      `/Users/${made.id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Patched Name' }),
    );
    expect(patched.displayName).toBe('Patched Name');
    const gone = await send('DELETE', `/Users/${made.id}`);
    expect(gone.statusCode).toBe(204);
    expect(gone.body).toBe('');
    expect(await stateOf(db, made.id)).toBe('removed');
    await refused('GET', `/Users/${made.id}`, undefined, 404);
    await refused('GET', '/Users/not-a-uuid', undefined, 404);
    await refused('PATCH', `/Users/${made.id}`, patch({ op: 'replace', path: 'active', value: false }), 404);
  });
});

describe('bad input is 400 in SCIM form, never 500', () => {
  test('malformed JSON, a body that is no object, a missing userName, a bad e-mail, a bad PATCH, a bad boolean', async ({
    scim: { send, ok, refused },
  }) => {
    const malformed = await send('POST', '/Users', undefined, { raw: '{"userName": ' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidSyntax' });
    expect((await refused('POST', '/Users', [1, 2], 400)).scimType).toBe('invalidSyntax');
    expect((await refused('POST', '/Users', { schemas: [USER] }, 400)).scimType).toBe('invalidValue');
    expect((await refused('POST', '/Users', newUser('bjensen'), 400)).scimType).toBe('invalidValue');
    expect(
      (await refused('POST', '/Users', newUser('x@bad.example', { active: 'maybe' }), 400)).scimType,
    ).toBe('invalidValue');
    const made = await ok('POST', '/Users', newUser('patch.bad@example.com'), 201);
    await refused(
      'PATCH',
      `/Users/${made.id}`,
      { schemas: [PATCH_OP], Operations: [{ op: 'explode' }] },
      400,
    );
    await refused('PATCH', `/Users/${made.id}`, { Operations: 'no' }, 400);
    await refused('PATCH', `/Users/${made.id}`, { schemas: [PATCH_OP], Operations: [null] }, 400);
    await refused(
      'PATCH',
      `/Users/${made.id}`,
      patch({ op: 'add', path: 'emails[type eq', value: 'x' }),
      400,
    );
    await refused('PATCH', `/Users/${made.id}`, patch({ op: 'replace', path: 'active', value: 'no' }), 400);
    expect(
      (await send('GET', '/Groups?excludedAttributes=members&excludedAttributes=members')).statusCode,
    ).toBe(200);
    expect((await send('GET', '/Users?filter=a&filter=b')).statusCode).toBe(400);
    await refused('GET', '/Nothing', undefined, 404);
  });

  test('any JSON sent to create, replace or patch is answered below 500', async ({ scim: { send, ok } }) => {
    const made = await ok('POST', '/Users', newUser('fuzzed@example.com'), 201);
    const group = await ok('POST', '/Groups', { schemas: [GROUP], displayName: 'Fuzzed' }, 201);
    const operation = fc.record(
      {
        op: fc.constantFrom('add', 'Replace', 'remove', 'copy', 7),
        path: fc.constantFrom(
          'active',
          'members',
          'members[value eq "x"]',
          'userName',
          'name.',
          '[',
          'displayName',
        ),
        value: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({ schemas: fc.constant([PATCH_OP]), Operations: fc.array(operation) }),
        ),
        fc.constantFrom(
          ['POST', '/Users'],
          ['PUT', `/Users/${made.id}`],
          ['PATCH', `/Users/${made.id}`],
          ['PATCH', `/Groups/${group.id}`],
          ['POST', '/Groups'],
        ),
        async (body, [method, path]) => {
          const res = await send(method as Method, path, body);
          expect(res.statusCode, `${method} ${path} ${JSON.stringify(body)}: ${res.body}`).toBeLessThan(500);
          expect(res.headers['content-type']).toBe('application/scim+json; charset=utf-8');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('Entra ID request shapes', () => {
  test('looks up by userName, creates with externalId, then deactivates with "Replace" and a string "False"', async ({
    scim: { ok, list, db },
  }) => {
    // Entra first asks whether the user exists, then creates it.
    expect((await list('/Users?filter=userName eq "Test_User_dfeef4c5@contoso.com"')).totalResults).toBe(0);
    const made = await ok(
      'POST',
      '/Users',
      {
        schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_dfeef4c5@contoso.com',
        active: true,
        emails: [{ primary: true, type: 'work', value: 'Test_User_dfeef4c5@contoso.com' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
      },
      201,
    );
    expect(made).toMatchObject({ externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', active: true });
    expect(made.displayName).toBe('givenName familyName');
    const found = await list('/Users?filter=userName eq "Test_User_dfeef4c5@contoso.com"');
    expect(found.Resources.map((r) => r.id)).toEqual([made.id]);

    // Entra's attribute updates: capitalised ops, paths of attributes it maps (kept or not).
    const renamed = await ok(
      'PATCH',
      `/Users/${made.id}`,
      patch(
        { op: 'Replace', path: 'displayName', value: 'Ada Lovelace' },
        {
          op: 'Add',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'R&D',
        },
        { op: 'Replace', path: 'name.givenName', value: 'Ada' },
      ),
    );
    expect(renamed.displayName).toBe('Ada Lovelace');
    // A given name alone does not replace the one name the directory keeps.
    const given = await ok(
      'PATCH',
      `/Users/${made.id}`,
      patch({ op: 'Replace', path: 'name.givenName', value: 'Augusta' }),
    );
    expect(given.displayName).toBe('Ada Lovelace');

    const off = await ok(
      'PATCH',
      `/Users/${made.id}`,
      patch({ op: 'Replace', path: 'active', value: 'False' }),
    );
    expect(off.active).toBe(false);
    expect(await stateOf(db, made.id)).toBe('suspended');
    const on = await ok(
      'PATCH',
      `/Users/${made.id}`,
      patch({ op: 'Replace', path: 'active', value: 'True' }),
    );
    expect(on.active).toBe(true);
    expect(await stateOf(db, made.id)).toBe('active');
  });

  test('group PATCH adds and removes members as Entra sends them', async ({ scim: { ok } }) => {
    const a = await ok('POST', '/Users', newUser('entra.a@contoso.com'), 201);
    const b = await ok('POST', '/Users', newUser('entra.b@contoso.com'), 201);
    const group = await ok(
      'POST',
      '/Groups',
      {
        schemas: [GROUP],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'Entra Group',
        members: [],
      },
      201,
    );
    const added = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'Add', path: 'members', value: [{ value: a.id }, { value: b.id }] }),
    );
    expect((added.members as { value: string }[]).map((m) => m.value).sort()).toEqual([a.id, b.id].sort());
    const removed = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'Remove', path: 'members', value: [{ value: a.id }] }),
    );
    expect((removed.members as { value: string }[]).map((m) => m.value)).toEqual([b.id]);
    const byFilter = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'Remove', path: `members[value eq "${b.id}"]` }),
    );
    expect(byFilter.members ?? []).toEqual([]);
    const bare = await ok('GET', `/Groups/${group.id}?excludedAttributes=members`);
    expect(bare).not.toHaveProperty('members');
    expect(bare.externalId).toBe('8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159');
  });
});

describe('Okta request shapes', () => {
  test('GET with startIndex=1&count=100, PUT with active false, PATCH replace {active:false}', async ({
    scim: { ok, list, db },
  }) => {
    const found = await list(
      '/Users?filter=userName%20eq%20%22okta.user%40example.com%22&startIndex=1&count=100',
    );
    expect(found).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
    const made = await ok(
      'POST',
      '/Users',
      {
        schemas: [USER],
        userName: 'okta.user@example.com',
        name: { givenName: 'Okta', familyName: 'User' },
        emails: [{ primary: true, value: 'okta.user@example.com', type: 'work' }],
        displayName: 'Okta User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      },
      201,
    );
    const put = await ok('PUT', `/Users/${made.id}`, {
      schemas: [USER],
      id: made.id,
      userName: 'okta.user@example.com',
      name: { givenName: 'Okta', familyName: 'User' },
      emails: [{ primary: true, value: 'okta.user@example.com', type: 'work' }],
      active: false,
      externalId: '00ujl29u0le5T6Aj10h7',
    });
    expect(put.active).toBe(false);
    expect(await stateOf(db, made.id)).toBe('suspended');
    await ok('PATCH', `/Users/${made.id}`, patch({ op: 'replace', value: { active: true } }));
    expect(await stateOf(db, made.id)).toBe('active');
    const off = await ok('PATCH', `/Users/${made.id}`, patch({ op: 'replace', value: { active: false } }));
    expect(off.active).toBe(false);
    expect(await stateOf(db, made.id)).toBe('suspended');
    expect(
      (await list('/Users?filter=active eq false and userName eq "okta.user@example.com"')).Resources.map(
        (r) => r.id,
      ),
    ).toEqual([made.id]);
  });
});

describe('Groups as RFC 7644 shows them', () => {
  test('create, §3.5.2.1 add members, §3.5.2.2 remove one by filter, §3.5.2.3 replace members, rename, delete', async ({
    scim: { ok, list, send, refused },
  }) => {
    const [a, b, c] = await Promise.all(
      ['rfc.a@example.com', 'rfc.b@example.com', 'rfc.c@example.com'].map((e) =>
        ok('POST', '/Users', newUser(e), 201),
      ),
    );
    const group = await ok(
      'POST',
      '/Groups',
      { schemas: [GROUP], displayName: 'Tour Guides', members: [{ value: a.id }] },
      201,
    );
    expect(group).toMatchObject({ displayName: 'Tour Guides', meta: { resourceType: 'Group' } });
    expect(
      (await refused('POST', '/Groups', { schemas: [GROUP], displayName: 'Tour Guides' }, 409)).scimType,
    ).toBe('uniqueness');
    const ids = (g: Resource) => ((g.members ?? []) as { value: string }[]).map((m) => m.value).sort();
    const added = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({
        op: 'add',
        path: 'members',
        value: [{ display: 'Babs Jensen', $ref: `../Users/${b.id}`, value: b.id }],
      }),
    );
    expect(ids(added)).toEqual([a.id, b.id].sort());
    const removed = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'remove', path: `members[value eq "${a.id}"]` }),
    );
    expect(ids(removed)).toEqual([b.id]);
    const replaced = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'replace', path: 'members', value: [{ value: a.id }, { value: c.id }] }),
    );
    expect(ids(replaced)).toEqual([a.id, c.id].sort());
    const renamed = await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'replace', path: 'displayName', value: 'Guides' }),
    );
    expect(renamed.displayName).toBe('Guides');
    expect(Number(renamed.meta.version.match(/\d+/)![0])).toBeGreaterThan(1);
    expect((await list('/Groups?filter=displayName eq "guides"')).Resources.map((g) => g.id)).toEqual([
      group.id,
    ]);
    expect((await list(`/Groups?filter=members[value eq "${c.id}"]`)).Resources.map((g) => g.id)).toEqual([
      group.id,
    ]);
    const put = await ok('PUT', `/Groups/${group.id}`, {
      schemas: [GROUP],
      displayName: 'Guides',
      members: [{ value: b.id }],
    });
    expect(ids(put)).toEqual([b.id]);
    // A member who is no User of the directory is refused, and nothing changes.
    expect(
      (
        await refused(
          'PATCH',
          `/Groups/${group.id}`,
          patch({ op: 'add', path: 'members', value: [{ value: 'nobody' }] }),
          400,
        )
      ).scimType,
    ).toBe('invalidValue');
    expect((await send('DELETE', `/Groups/${group.id}`)).statusCode).toBe(204);
    await refused('GET', `/Groups/${group.id}`, undefined, 404);
  });
});

describe('a group mapped to a pool', () => {
  test('a member SCIM adds holds a seat; deactivated by SCIM, the seat is freed and the open lease ended', async ({
    api,
    cast: { boss },
    scim: { ok, db },
  }) => {
    const person = await ok('POST', '/Users', newUser('seat.holder@example.com'), 201);
    const group = await ok('POST', '/Groups', { schemas: [GROUP], displayName: 'Fluids users' }, 201);
    await api.ok(boss, webSeatsApi.setGroupPools, {
      customerNumber: CN,
      groupId: group.id,
      partNumbers: [NAMED],
    });
    const seats = async () =>
      (await db.select().from(webNamedSeats).where(eq(webNamedSeats.userId, person.id))).map((s) => [
        s.partNumber,
        s.groupId,
      ]);
    expect(await seats()).toEqual([]);
    await ok(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'Add', path: 'members', value: [{ value: person.id }] }),
    );
    expect(await seats()).toEqual([[NAMED, group.id]]);
    await db.insert(webLeases).values({
      customerNumber: CN,
      partNumber: NAMED,
      poolKind: 'named',
      userId: person.id,
      email: 'seat.holder@example.com',
      product: 'Fluids',
      outcome: 'open',
    });
    await ok('PATCH', `/Users/${person.id}`, patch({ op: 'Replace', path: 'active', value: 'False' }));
    expect(await seats()).toEqual([]);
    const leases = await db.select().from(webLeases).where(eq(webLeases.userId, person.id));
    expect(leases.map((l) => [l.outcome, l.endedAt !== null])).toEqual([['user-removed', true]]);
    // Back on: the group's seat comes back.
    await ok('PATCH', `/Users/${person.id}`, patch({ op: 'replace', value: { active: true } }));
    expect(await seats()).toEqual([[NAMED, group.id]]);
  });

  test("the directory's last administrator cannot be deactivated or deleted by SCIM (409, nothing changes)", async ({
    scim: { ok, refused, db },
  }) => {
    const admin = await ok('POST', '/Users', newUser('only.admin@example.com'), 201);
    await db.update(webUsers).set({ role: 'administrator' }).where(eq(webUsers.id, admin.id));
    const refusal = await refused(
      'PATCH',
      `/Users/${admin.id}`,
      patch({ op: 'Replace', path: 'active', value: 'False' }),
      409,
    );
    expect(refusal.detail).toContain('only.admin@example.com');
    expect(refusal.scimType).toBeUndefined();
    await refused('DELETE', `/Users/${admin.id}`, undefined, 409);
    expect(await stateOf(db, admin.id)).toBe('active');
    await db.update(webUsers).set({ role: 'member' }).where(eq(webUsers.id, admin.id));
  });

  test("SCIM's writes are audited by the directory with the token as actor", async ({ scim: { ok, db } }) => {
    const log = auditLog(db);
    const mark = await log.mark();
    const made = await ok('POST', '/Users', newUser('audited@example.com'), 201);
    const [entry] = await log.since(mark);
    expect(entry).toMatchObject({
      action: 'web-directory.user.created',
      objectId: made.id,
      actorKind: 'api-token',
      actorName: 'SCIM token "Entra ID"',
      customerNumber: CN,
    });
    expect(entry.after).toMatchObject({ source: 'scim' });
  });
});

describe('versions (RFC 7644 §3.14): If-Match on writes, If-None-Match on reads', () => {
  test('a read naming the current ETag is 304 with no body; a write naming an old one is 412 and changes nothing', async ({
    scim: { ok, send },
  }) => {
    const made = await ok('POST', '/Users', newUser('versions@example.com', { displayName: 'First' }), 201);
    const v1 = made.meta.version;
    const notModified = await send('GET', `/Users/${made.id}`, undefined, {
      headers: { 'if-none-match': v1 },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(v1);
    // A list of tags, one of them current, and the strong form of the tag name it too.
    const listed = await send('GET', `/Users/${made.id}`, undefined, {
      headers: { 'if-none-match': `W/"999", ${v1.replace('W/', '')}` },
    });
    expect(listed.statusCode).toBe(304);

    const renamed = await send(
      'PUT',
      `/Users/${made.id}`,
      newUser('versions@example.com', { displayName: 'Second' }),
      {
        headers: { 'if-match': v1 },
      },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    const v2 = renamed.headers.etag as string;
    expect(v2).not.toBe(v1);
    // The client that read v1 now holds an old copy: the read answers it whole.
    const changed = await send('GET', `/Users/${made.id}`, undefined, { headers: { 'if-none-match': v1 } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().displayName).toBe('Second');

    // Each write naming v1 is refused with SCIM's 412, and the person stays as v2 left them.
    for (const [method, body] of [
      ['PUT', newUser('versions@example.com', { displayName: 'Lost update' })],
      ['PATCH', patch({ op: 'replace', path: 'displayName', value: 'Lost update' })],
      ['DELETE', undefined],
    ] as const) {
      const refused = await send(method, `/Users/${made.id}`, body, { headers: { 'if-match': v1 } });
      expect(refused.statusCode, `${method} ${refused.body}`).toBe(412);
      expect(refused.json()).toMatchObject({ schemas: [ERROR], status: '412' });
    }
    expect(await ok('GET', `/Users/${made.id}`)).toMatchObject({
      displayName: 'Second',
      meta: { version: v2 },
    });
    // "*" names any version of a resource that exists.
    const deleted = await send('DELETE', `/Users/${made.id}`, undefined, { headers: { 'if-match': '*' } });
    expect(deleted.statusCode).toBe(204);
  });

  test('two writes made against the same version: exactly one applies, the other is 412', async ({
    scim: { ok, send },
  }) => {
    const person = await ok('POST', '/Users', newUser('race.versions@example.com'), 201);
    const group = await ok('POST', '/Groups', { schemas: [GROUP], displayName: 'Version race' }, 201);
    const answers = await Promise.all(
      ['Version race A', 'Version race B'].map((displayName) =>
        send(
          'PATCH',
          `/Groups/${group.id}`,
          patch({ op: 'replace', path: 'displayName', value: displayName }),
          {
            headers: { 'if-match': group.meta.version },
          },
        ),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412]);
    const winner = answers.find((a) => a.statusCode === 200)!.json() as Resource;
    expect((await ok('GET', `/Groups/${group.id}`)).displayName).toBe(winner.displayName);
    const members = await send(
      'PATCH',
      `/Groups/${group.id}`,
      patch({ op: 'add', path: 'members', value: [{ value: person.id }] }),
      { headers: { 'if-match': group.meta.version } },
    );
    expect(members.statusCode).toBe(412);
    expect((await ok('GET', `/Groups/${group.id}`)).members ?? []).toEqual([]);
  });

  test('a group PATCH that renames and adds more people than its pool holds changes nothing: whole or not at all', async ({
    scim: { ok, send },
    api,
    cast: { boss },
    database: { db },
  }) => {
    await buildProduct(db, 'SCIM-ONE', { name: 'Optics - Named User', featureName: 'scim_optics' });
    await buildEntitlement(db, CN, {
      kind: 'SSL',
      partNumber: 'SCIM-ONE',
      licenseModel: 'Named User',
      quantity: 1,
      startDate: dayFromToday(-10),
      endDate: dayFromToday(300),
    });
    const [a, b] = await Promise.all(
      ['whole.a@example.com', 'whole.b@example.com'].map((e) => ok('POST', '/Users', newUser(e), 201)),
    );
    const group = await ok('POST', '/Groups', { schemas: [GROUP], displayName: 'Whole patch' }, 201);
    await api.ok(boss, webSeatsApi.setGroupPools, {
      customerNumber: CN,
      groupId: group.id,
      partNumbers: ['SCIM-ONE'],
    });
    const before = await ok('GET', `/Groups/${group.id}`);
    // The rename comes first and would succeed alone; the members need two seats of a pool of one.
    const refused = await send(
      'PATCH',
      `/Groups/${group.id}`,
      patch(
        { op: 'replace', path: 'displayName', value: 'Whole patch renamed' },
        { op: 'add', path: 'members', value: [{ value: a.id }, { value: b.id }] },
      ),
    );
    expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    expect(await ok('GET', `/Groups/${group.id}`)).toEqual(before);
  });
});
