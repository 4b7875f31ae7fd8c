import { apiTokensApi } from '@lp/contract/api-tokens/api';
import { authApi } from '@lp/contract/auth/api';
import { messages } from '@lp/contract/common/errors';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { acme, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { apiTokens, portalContacts, users } from '../../db/schema.ts';
import { automatedActor } from '../audit/service.ts';
import { disableUser, enableUser, removeUser } from '../auth/service.ts';

/* Issue 20 §3 (decision 042): personal API tokens follow their owner's standing on every call. */

const CN = acme.customerNumber;
const OTHER = other.customerNumber;

/** A caller with a personal API token instead of a session. */
const bearer = (token: string): Caller => ({
  email: '',
  userId: '',
  headers: { authorization: `Bearer ${token}` },
});

const test = apiTest
  .override('appEnv', { scope: 'file' }, { API_TOKEN_DEFAULT_DAYS: '30', API_TOKEN_MAX_DAYS: '60' })
  /** The calls of this feature as the tests make them. */
  .extend('calls', { scope: 'file' }, async ({ api }) => ({
    create: (who: Caller, payload: Record<string, unknown>) => api.call(who, apiTokensApi.create, payload),
    mine: (who: Caller) => api.call(who, apiTokensApi.mine, undefined),
    ofAccount: (who: Caller, customerNumber: string) =>
      api.call(who, apiTokensApi.ofAccount, { customerNumber }),
    revoke: (who: Caller, id: string, customerNumber?: string) =>
      api.call(who, apiTokensApi.revoke, { params: { id }, body: customerNumber ? { customerNumber } : {} }),
    whoAmI: (token: string) => api.call(bearer(token), authApi.session, undefined),
    newToken: async (who: Caller, name: string, expiresInDays?: number) =>
      (await api.ok(who, apiTokensApi.create, { name, expiresInDays })).data,
  }));

describe('my API tokens', () => {
  test('creates a named token shown once, with the default lifetime, lists it with its last use, and revokes it', async ({
    database,
    cast: { boss, reader },
    calls: { mine, revoke, whoAmI, newToken },
  }) => {
    const before = Date.now();
    const created = await newToken(boss, 'nightly export');
    expect(created.token).toMatch(/^lp_[\w-]{43}$/);
    const days = (Date.parse(created.expiresAt!) - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);

    let list = (await mine(boss)).json().data;
    expect(list).toMatchObject({ defaultDays: 30, maxDays: 60 });
    expect(list.tokens).toEqual([
      expect.objectContaining({ id: created.id, name: 'nightly export', state: 'active' }),
    ]);
    expect(list.tokens[0].lastUsedAt).toBeNull();
    expect(JSON.stringify(list)).not.toContain(created.token);

    expect((await whoAmI(created.token)).json().data).toMatchObject({
      email: 'boss@acme.example',
      via: 'token',
    });
    list = (await mine(boss)).json().data;
    expect(Date.parse(list.tokens[0].lastUsedAt)).toBeGreaterThanOrEqual(before);

    // Another user cannot see or revoke it; its id answers like an unknown one.
    expect((await mine(reader)).json().data.tokens).toEqual([]);
    const foreign = await revoke(reader, created.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ status: 'FAILURE', err: messages.tokenNotFound, code: 'NOT_FOUND' });
    expect((await revoke(reader, '00000000-0000-4000-8000-000000000000')).json()).toEqual(foreign.json());

    expect((await revoke(boss, created.id)).statusCode).toBe(200);
    expect((await whoAmI(created.token)).statusCode).toBe(401);
    expect((await mine(boss)).json().data.tokens[0].state).toBe('revoked');
    const entries = (await auditEntriesOf(database.db, 'auth.api-token.')).filter(
      (e) => e.objectId === created.id,
    );
    expect(entries.map((e) => [e.action, e.actorName, e.customerNumber])).toEqual([
      ['auth.api-token.created', 'boss@acme.example', null],
      ['auth.api-token.revoked', 'boss@acme.example', null],
    ]);
  });

  test('refuses bad names, lifetimes past the maximum, and tokens made with a token', async ({
    cast: { boss },
    calls: { create, newToken },
  }) => {
    for (const name of ['', '   ', 'a'.repeat(101), 'bad\u0000name', 'rtl\u202Eevil', 'zero\u200Bwidth']) {
      const res = await create(boss, { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().status).toBe('FAILURE');
    }
    const long = await create(boss, { name: 'too long', expiresInDays: 61 });
    expect(long.statusCode).toBe(400);
    expect(long.json().err).toBe(messages.tokenTooLong(60));
    const { token } = await newToken(boss, 'script', 60);
    const viaToken = await create(bearer(token), { name: 'child' });
    expect(viaToken.statusCode).toBe(403);
    expect(viaToken.json().err).toBe(messages.tokenCreateNeedsSession);
  });
});

describe('vendor roles through a token', () => {
  test('acts on the roles only while the provider confirmed them within TOKEN_ROLES_MAX_AGE_HOURS (72)', async ({
    api,
    database,
    cast: { busops },
    calls: { ofAccount, whoAmI, newToken },
  }) => {
    const { token } = await newToken(busops, 'staff script');
    expect((await whoAmI(token)).json().data.vendorRoles).toEqual(['busops']);
    expect((await ofAccount(bearer(token), OTHER)).statusCode).toBe(200);

    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
    await database.db
      .update(users)
      .set({ rolesConfirmedAt: hoursAgo(73) })
      .where(eq(users.email, 'busops@vendor.example'));
    expect((await whoAmI(token)).json().data.vendorRoles).toEqual([]);
    // Without its roles, the staff member is an outsider to every account.
    expect((await ofAccount(bearer(token), OTHER)).statusCode).toBe(403);
    // A session is a fresh sign-in, so it keeps them (the session ends within SESSION_ABSOLUTE_HOURS anyway).
    expect((await api.call(busops, authApi.session, undefined)).json().data.vendorRoles).toEqual(['busops']);

    await database.db
      .update(users)
      .set({ rolesConfirmedAt: hoursAgo(71) })
      .where(eq(users.email, 'busops@vendor.example'));
    expect((await whoAmI(token)).json().data.vendorRoles).toEqual(['busops']);
  });
});

describe('tokens that can act on an account', () => {
  test('shows its administrators and vendor staff the tokens of its contacts only; others get 403', async ({
    database,
    cast: { boss, reader, outsider, busops, support },
    calls: { ofAccount, revoke, whoAmI, newToken },
  }) => {
    const bossToken = await newToken(boss, 'boss sync');
    const readerToken = await newToken(reader, 'reader report');
    const outsiderToken = await newToken(outsider, 'outsider job');

    const names = (res: LightMyRequestResponse) =>
      (res.json().data.tokens as { name: string; ownerEmail: string }[]).map(
        (t) => `${t.ownerEmail} ${t.name}`,
      );
    const seen = names(await ofAccount(boss, CN));
    expect(seen).toEqual(
      expect.arrayContaining(['boss@acme.example boss sync', 'reader@acme.example reader report']),
    );
    expect(seen.some((n) => n.includes('outsider'))).toBe(false);
    expect(names(await ofAccount(support, CN))).toEqual(seen);

    // The viewer, an outsider and an unknown account: the same 403 as any account call.
    const forbidden = await ofAccount(reader, CN);
    expect(forbidden.statusCode).toBe(403);
    const outside = await ofAccount(outsider, CN);
    expect(outside.statusCode).toBe(403);
    expect((await ofAccount(outsider, '7199999')).json()).toEqual(outside.json());

    // The administrator revokes a contact's token for the account: recorded in the account's audit log.
    expect((await revoke(boss, readerToken.id, CN)).statusCode).toBe(200);
    expect((await whoAmI(readerToken.token)).statusCode).toBe(401);
    const [entry] = (await auditEntriesOf(database.db, 'auth.api-token.revoked')).filter(
      (e) => e.objectId === readerToken.id,
    );
    expect(entry).toMatchObject({ customerNumber: CN, actorName: 'boss@acme.example' });
    // Not a token of the account's contacts: answered like an unknown id, nothing revoked.
    expect((await revoke(boss, outsiderToken.id, CN)).statusCode).toBe(404);
    expect((await whoAmI(outsiderToken.token)).statusCode).toBe(200);
    // The viewer cannot revoke the administrator's token by naming the account.
    expect((await revoke(reader, bossToken.id, CN)).statusCode).toBe(403);
    // Business operations revoke any token.
    expect((await revoke(busops, outsiderToken.id)).statusCode).toBe(200);
    expect((await whoAmI(outsiderToken.token)).statusCode).toBe(401);
  });
});

describe('access ends when the person leaves', () => {
  test('a disabled user loses every session and token at once; enabling does not bring the tokens back', async ({
    api,
    database,
    signIn,
    calls: { whoAmI, newToken },
  }) => {
    const leaver = await signIn('leaver@acme.example');
    const { token } = await newToken(leaver, 'leaver script');
    expect((await whoAmI(token)).statusCode).toBe(200);

    const result = await disableUser(database.db, automatedActor, 'leaver@acme.example');
    expect(result).toMatchObject({ alreadyDisabled: false, sessions: 1, tokens: 1 });
    expect((await whoAmI(token)).statusCode).toBe(401);
    expect((await api.call(leaver, authApi.session, undefined)).statusCode).toBe(401);

    expect(await enableUser(database.db, automatedActor, 'leaver@acme.example')).toBe(true);
    expect((await whoAmI(token)).statusCode).toBe(401);
    const actions = (await auditEntriesOf(database.db, 'auth.user.')).map((e) => `${e.action} ${e.objectId}`);
    expect(actions).toEqual([
      'auth.user.disabled leaver@acme.example',
      'auth.user.enabled leaver@acme.example',
    ]);
  });

  test('a disabled user’s token stops even if the revoke were missed (the owner is checked on every call)', async ({
    database,
    signIn,
    calls: { whoAmI, newToken },
  }) => {
    const late = await signIn('late@acme.example');
    const { token, id } = await newToken(late, 'late');
    await database.db
      .update(users)
      .set({ disabledAt: new Date() })
      .where(eq(users.email, 'late@acme.example'));
    expect((await whoAmI(token)).statusCode).toBe(401);
    const [row] = await database.db.select().from(apiTokens).where(eq(apiTokens.id, id));
    expect(row.revokedAt).toBeNull();
  });

  test('a removed user loses sessions, tokens and every account contact entry', async ({
    api,
    database,
    signIn,
    cast: _accounts,
    calls: { whoAmI, newToken },
  }) => {
    const leaving = await signIn('boss@acme.example');
    const { token } = await newToken(leaving, 'before leaving');
    const removed = await removeUser(database.db, automatedActor, 'boss@acme.example');
    expect(removed.accounts).toEqual([CN]);
    expect((await whoAmI(token)).statusCode).toBe(401);
    expect((await api.call(leaving, authApi.session, undefined)).statusCode).toBe(401);
    expect(
      await database.db.select().from(portalContacts).where(eq(portalContacts.email, 'boss@acme.example')),
    ).toEqual([]);
    const [contact] = (await auditEntriesOf(database.db, 'portal-access.contact.removed')).filter(
      (e) => e.objectId === 'boss@acme.example',
    );
    expect(contact).toMatchObject({ customerNumber: CN, before: { role: 'Licensing Portal Administrator' } });
  });
});
