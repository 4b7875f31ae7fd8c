import { messages } from '@lp/contract/common/errors';
import type { BodyInput } from '@lp/contract/common/operation';
import { emailsApi } from '@lp/contract/emails/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { emails } from '../../db/schema.ts';

const ACME = acme.customerNumber;
const OTHER = other.customerNumber;
const INDIRECT = '5100003';
const BLOCKED = '5100004';

const hostileBody =
  '<p onclick="steal()">Hello <b>team</b></p><script>alert(document.cookie)</script>' +
  '<img src="x" onerror="alert(1)"><a href="javascript:alert(1)">bad</a>' +
  '<a href="https://portal.example/help" onmouseover="x()">help</a>' +
  '<iframe src="https://evil.example"></iframe><table border="1"><tr><td>cell</td></tr></table>';

type ListInput = Omit<BodyInput<typeof emailsApi.page>, 'customerNumber'>;

const it = apiTest
  /**
   * Acme's e-mails (twelve, one a day, subjects alternating between two kinds, and one with a hostile body) and one
   * of Other; Acme's admin (boss) is also the admin of an indirect and an export-blocked account.
   */
  .extend('mail', { scope: 'file' }, async ({ database, cast: { boss } }) => {
    const { db } = database;
    await buildAccount(db, { customerNumber: INDIRECT, name: 'Indirect Ltd', orgType: 'Indirect' });
    await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
    for (const cn of [INDIRECT, BLOCKED]) await addContact(db, cn, boss.email, contactRoles.admin);
    const rows = Array.from({ length: 12 }, (_, i) => ({
      customerNumber: ACME,
      to: i % 3 === 0 ? 'ops@acme.example' : 'licensing@acme.example',
      subject: i % 2 === 0 ? `License file for host${String(i).padStart(2, '0')}` : `Weekly Statement ${i}`,
      body: `<p>Message ${i}</p>`,
      date: new Date(Date.UTC(2026, 2, 1 + i, 9, 30, 5)),
    }));
    await db.insert(emails).values(rows);
    const [hostile] = await db
      .insert(emails)
      .values({
        customerNumber: ACME,
        to: 'ops@acme.example',
        subject: 'Hostile body',
        body: hostileBody,
        date: new Date(Date.UTC(2026, 1, 1, 8, 0, 0)),
      })
      .returning();
    const [others] = await db
      .insert(emails)
      .values({
        customerNumber: OTHER,
        to: 'x@other.example',
        subject: 'Secret of Other',
        body: '<p>secret</p>',
      })
      .returning();
    return { hostileEmailId: hostile.id, otherEmailId: others.id };
  })
  /** Someone signed in who is a contact of no account. */
  .extend('stranger', { scope: 'file' }, async ({ signIn }) => signIn('nobody@elsewhere.example'))
  /** Acme's e-mails as `who` lists them. */
  .extend('list', { scope: 'file' }, async ({ api, mail: _mail }) => {
    return async (who: Caller, input: ListInput = {}) =>
      api.ok(who, emailsApi.page, { customerNumber: ACME, ...input });
  })
  /** The id of Acme's newest e-mail. */
  .extend('newestId', { scope: 'file' }, async ({ list, cast: { boss } }) => {
    return async () =>
      (await list(boss, { sorting: { name: 'date', direction: 'desc' }, limit: 1 })).data[0]!.id;
  });

describe('listEmails', () => {
  it('lists the customer e-mails newest first with dates as YYYY-MM-DD HH:mm:ss', async ({
    cast: { boss },
    list,
  }) => {
    const body = await list(boss);
    expect(body.status).toBe('SUCCESS');
    expect(body.data).toHaveLength(13);
    expect(Object.keys(body.data[0]!).sort()).toEqual(['date', 'id', 'subject', 'to']);
    expect(body.data[0]).toMatchObject({ date: '2026-03-12 09:30:05', subject: 'Weekly Statement 11' });
    expect(body.data.at(-1)).toMatchObject({ subject: 'Hostile body', date: '2026-02-01 08:00:00' });
    // Nothing of another customer.
    expect(body.data.some((r) => r.subject === 'Secret of Other')).toBe(false);
  });

  it('lets a view-only contact and vendor staff read', async ({ cast: { reader, support }, list }) => {
    expect((await list(reader)).data).toHaveLength(13);
    expect((await list(support)).data).toHaveLength(13);
  });

  it('filters with contains and equals, sorts and pages', async ({ cast: { boss }, list }) => {
    const contains = await list(boss, {
      filter: {
        condition: 'ALL',
        criteria: [{ name: 'subject', method: 'CONTAINS', value: 'license file', casefold: true }],
      },
      sorting: [{ name: 'subject', direction: 'asc' }],
    });
    expect(contains.data.map((r) => r.subject)).toEqual(
      [0, 2, 4, 6, 8, 10].map((i) => `License file for host${String(i).padStart(2, '0')}`),
    );

    const equals = await list(boss, {
      filter: { condition: 'ALL', criteria: [{ name: 'to', method: 'EQUALS', value: 'ops@acme.example' }] },
    });
    expect(equals.data).toHaveLength(5);
    expect(equals.data.every((r) => r.to === 'ops@acme.example')).toBe(true);

    // The Date column is filtered by its displayed text.
    const byDay = await list(boss, {
      filter: { criteria: [{ name: 'date', method: 'CONTAINS', value: '2026-03-0', tostring: true }] },
    });
    expect(byDay.data).toHaveLength(9);

    const first = await list(boss, { sorting: { name: 'date', direction: 'asc' }, offset: 0, limit: 5 });
    const second = await list(boss, { sorting: { name: 'date', direction: 'asc' }, offset: 5, limit: 5 });
    expect(first.data.map((r) => r.subject)[0]).toBe('Hostile body');
    expect(second.data[0]!.date).toBe('2026-03-05 09:30:05');
    // Token paging continues where the page ended.
    expect(first.token).toEqual(expect.any(String));
    const byToken = await list(boss, {
      sorting: { name: 'date', direction: 'asc' },
      token: first.token!,
      limit: 5,
    });
    expect(byToken.data).toEqual(second.data);
  });

  it('counts and lists distinct values under the same scope', async ({
    api,
    cast: { boss },
    mail: _mail,
  }) => {
    const count = await api.ok(boss, emailsApi.count, {
      customerNumber: ACME,
      filter: { criteria: [{ name: 'subject', method: 'STARTSWITH', value: 'Weekly' }] },
    });
    expect(count).toEqual({ status: 'SUCCESS', data: 6 });
    const distinct = await api.ok(boss, emailsApi.distinct, { customerNumber: ACME, key: 'to' });
    expect(distinct).toEqual({
      status: 'SUCCESS',
      data: ['licensing@acme.example', 'ops@acme.example'],
    });
  });

  it('refuses an unknown filter column, a bad sort and a missing customer number with 400', async ({
    api,
    cast: { boss },
  }) => {
    await api.refused(
      boss,
      emailsApi.page,
      {
        customerNumber: ACME,
        filter: { criteria: [{ name: 'customer_number', method: 'EQUALS', value: OTHER }] },
      },
      400,
    );
    await api.refused(boss, emailsApi.page, { customerNumber: ACME, sorting: [{ name: 'body' }] }, 400);
    const missing = await api.refused(boss, emailsApi.page, {}, 400);
    expect(missing.err).toMatch(/customerNumber/);
    await api.refused(boss, emailsApi.distinct, { customerNumber: ACME, key: 'body' }, 400);
  });

  it('answers 401 to anonymous callers and 403 to outsiders', async ({
    api,
    cast: { outsider: otherAdmin },
    stranger,
  }) => {
    await api.refused(anonymous, emailsApi.page, { customerNumber: ACME }, 401);
    await api.refused(anonymous, emailsApi.count, { customerNumber: ACME }, 401);
    await api.refused(stranger, emailsApi.page, { customerNumber: ACME }, 403);
    await api.refused(otherAdmin, emailsApi.page, { customerNumber: ACME }, 403);
    await api.refused(stranger, emailsApi.count, { customerNumber: ACME }, 403);
    await api.refused(stranger, emailsApi.distinct, { customerNumber: ACME, key: 'to' }, 403);
  });

  it('refuses indirect and export-blocked customers with 403', async ({
    api,
    cast: { boss, busops },
    mail: _mail,
  }) => {
    const indirect = await api.refused(boss, emailsApi.page, { customerNumber: INDIRECT }, 403);
    expect(indirect.err).toBe(messages.noPermission);
    const blocked = await api.refused(boss, emailsApi.page, { customerNumber: BLOCKED }, 403);
    expect(blocked.err).toBe(messages.exportDenied);
    await api.refused(busops, emailsApi.page, { customerNumber: INDIRECT }, 403);
  });
});

describe('getEmail', () => {
  it('returns the record with customer name and date', async ({ api, cast: { boss }, newestId }) => {
    const id = await newestId();
    expect(await api.ok(boss, emailsApi.get, { customerNumber: ACME, id: String(id) })).toEqual({
      status: 'SUCCESS',
      data: {
        id,
        customerNumber: ACME,
        customerName: acme.name,
        to: 'licensing@acme.example',
        subject: 'Weekly Statement 11',
        body: '<p>Message 11</p>',
        date: '2026-03-12 09:30:05',
        attachments: [],
      },
    });
  });

  it('sanitises the body: no scripts, event handlers, javascript: links or frames', async ({
    api,
    cast: { boss },
    mail: { hostileEmailId },
  }) => {
    const { body } = (await api.ok(boss, emailsApi.get, { customerNumber: ACME, id: hostileEmailId })).data;
    expect(body).not.toMatch(/<script|alert\(document|onerror|onclick|onmouseover|javascript:|<iframe/i);
    expect(body).toContain('<b>team</b>');
    expect(body).toContain('<td>cell</td>');
    expect(body).toContain('href="https://portal.example/help"');
  });

  it('answers another customer\u2019s e-mail like an unknown id (404) and never returns it', async ({
    api,
    cast: { boss },
    mail: { otherEmailId },
  }) => {
    const refusal = await api.refused(boss, emailsApi.get, { customerNumber: ACME, id: otherEmailId }, 404);
    expect(JSON.stringify(refusal)).not.toContain('Secret');
    await api.refused(boss, emailsApi.get, { customerNumber: ACME, id: 999999 }, 404);
    // Naming the other customer does not help a non-contact.
    await api.refused(boss, emailsApi.get, { customerNumber: OTHER, id: otherEmailId }, 403);
  });

  it('checks access and input', async ({ api, cast: { boss }, stranger, newestId }) => {
    const id = await newestId();
    await api.refused(anonymous, emailsApi.get, { customerNumber: ACME, id }, 401);
    await api.refused(stranger, emailsApi.get, { customerNumber: ACME, id }, 403);
    await api.refused(boss, emailsApi.get, { customerNumber: INDIRECT, id }, 403);
    await api.refused(boss, emailsApi.get, { customerNumber: BLOCKED, id }, 403);
    await api.refused(boss, emailsApi.get, { customerNumber: ACME, id: 'abc' }, 400);
    await api.refused(boss, emailsApi.get, { customerNumber: ACME }, 400);
  });
});

describe('deleteEmail', () => {
  it('lets busops delete, and refuses customers, view-only support and other staff (decision 022)', async ({
    api,
    cast: { boss, busops, support, sales },
    list,
  }) => {
    const ids = (await list(boss, { sorting: { name: 'date', direction: 'asc' }, limit: 3 })).data.map((r) =>
      String(r.id),
    );
    const second = { params: { id: ids[1]! } };
    await api.refused(anonymous, emailsApi.remove, second, 401);
    const byCustomer = await api.refused(boss, emailsApi.remove, second, 403);
    expect(byCustomer).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    await api.refused(sales, emailsApi.remove, second, 403);

    expect(await api.ok(busops, emailsApi.remove, second)).toEqual({ status: 'SUCCESS' });
    await api.refused(boss, emailsApi.get, { customerNumber: ACME, id: ids[1] }, 404);
    await api.refused(busops, emailsApi.remove, second, 404);
    const bySupport = await api.refused(support, emailsApi.remove, { params: { id: ids[2] } }, 403);
    expect(bySupport).toMatchObject({ err: messages.noPermission });
    expect((await list(boss)).data).toHaveLength(12);
    await api.refused(busops, emailsApi.remove, { params: { id: 'not-a-number' } }, 400);
  });
});
