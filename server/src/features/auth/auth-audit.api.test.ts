import { authApi } from '@lp/contract/auth/api';
import { operationUrl } from '@lp/contract/common/operation';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { freePort } from '../../../harness/free-port.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { formAction, TestBrowser } from '../../../test/test-browser.ts';
import { idpAccounts, users } from '../../db/schema.ts';
import { hashPassword } from './password.ts';
import { UNKNOWN_EMAIL } from './sign-in-audit.ts';

/*
 * Issue 13 §1: sign-ins and sign-in failures are vendor-wide audit entries. There is no principal yet: the actor
 * is the e-mail signing in (no id for a failure), with the request's id and address.
 */

const password = 'correct horse battery';

const it = apiTest
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .override('appEnv', { scope: 'file' }, async ({}) => {
    const port = await freePort();
    return {
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      LOGIN_RATE_LIMIT_PER_MINUTE: '30',
      LOGIN_ACCOUNT_MAX_FAILURES: '2',
    };
  })
  /** The app listening on its port (sign-in goes through the real redirects), with two IdP accounts. */
  .extend('base', { scope: 'file' }, async ({ app, appEnv, database }) => {
    await app.listen({ host: '127.0.0.1', port: Number(appEnv.PORT) });
    const passwordHash = await hashPassword(password);
    await database.db
      .insert(idpAccounts)
      .values(
        ['ada@vendor.example', 'cu@customer.example'].map((email) => ({ email, name: email, passwordHash })),
      );
    return appEnv.PUBLIC_URL!;
  })
  .extend('signInAudit', { scope: 'file' }, async ({ base, database }) => ({
    /** Opens the login page through the real redirect chain and submits it. */
    attempt: async (email: string, pw: string) => {
      const browser = new TestBrowser();
      const { response, url } = await browser.navigate(
        `${base}${operationUrl(authApi.login, undefined, { returnTo: '/home' })}`,
      );
      return browser.postForm(formAction(await response.text(), url), { email, password: pw });
    },
    entries: () => auditEntriesOf(database.db, 'auth.sign-in.'),
  }));

const fromRequest = { customerNumber: null, requestId: expect.any(String), clientIp: '127.0.0.1' };

describe('sign-in audit', () => {
  it('a sign-in is one entry naming the user, with the request id and address', async ({
    database,
    signInAudit: { attempt, entries },
  }) => {
    const done = await attempt('ADA@vendor.example', password);
    expect(done.url.pathname).toBe('/home');
    const [user] = await database.db.select().from(users).where(eq(users.email, 'ada@vendor.example'));
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...fromRequest,
      actorKind: 'user',
      actorId: user.id,
      actorName: 'ada@vendor.example',
      action: 'auth.sign-in.succeeded',
      objectType: 'user',
      objectId: 'ada@vendor.example',
      before: null,
      after: null,
    });
  });

  it('a wrong password or an unknown address is one failure entry each, the same reason, no password', async ({
    signInAudit: { attempt, entries },
  }) => {
    await attempt('ada@vendor.example', 'wrong password');
    await attempt('Nobody@X.example', password);
    const rows = (await entries()).slice(1);
    expect(rows).toHaveLength(2);
    const failure = (email: string) => ({
      ...fromRequest,
      actorKind: 'user',
      actorId: null,
      actorName: email,
      action: 'auth.sign-in.failed',
      objectType: 'user',
      objectId: email,
      after: { reason: 'wrong-credentials' },
    });
    expect(rows[0]).toMatchObject(failure('ada@vendor.example'));
    expect(rows[1]).toMatchObject(failure('nobody@x.example'));
    expect(JSON.stringify(rows)).not.toMatch(/wrong password|correct horse/);
  });

  it('the failure that locks the address says so, and a refused sign-in while locked is a failure too', async ({
    signInAudit: { attempt, entries },
  }) => {
    const before = (await entries()).length;
    await attempt('cu@customer.example', 'nope');
    await attempt('cu@customer.example', 'nope again');
    await attempt('cu@customer.example', password);
    const rows = (await entries()).slice(before);
    expect(rows.map((r) => [r.action, r.objectId, r.after])).toEqual([
      ['auth.sign-in.failed', 'cu@customer.example', { reason: 'wrong-credentials' }],
      [
        'auth.sign-in.failed',
        'cu@customer.example',
        { reason: 'wrong-credentials', locked: true, lock: 'account' },
      ],
      ['auth.sign-in.failed', 'cu@customer.example', { reason: 'locked', lock: 'account' }],
    ]);
  });

  it('a callback that fails (unknown state) is one failure entry of an unknown user', async ({
    base,
    signInAudit: { entries },
  }) => {
    const before = (await entries()).length;
    const res = await fetch(
      `${base}${operationUrl(authApi.callback, undefined, { code: 'abc', state: 'forged' })}`,
      {
        redirect: 'manual',
      },
    );
    expect(res.headers.get('location')).toBe('/?signin=failed');
    const rows = (await entries()).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...fromRequest,
      actorKind: 'user',
      actorId: null,
      actorName: UNKNOWN_EMAIL,
      action: 'auth.sign-in.failed',
      objectType: 'user',
      objectId: UNKNOWN_EMAIL,
      after: { reason: 'unknown-state' },
    });
  });
});
