import { portalAccessApi } from '@lp/contract/portal-access/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';

/* Issue 13 §1: every contact added, changed or removed is one audit entry of the account. */

const { admin, viewer } = contactRoles;
const CN = acme.customerNumber;
type Contact = { email: string; role: string };

const save = (newContacts: Contact[], oldContacts: Contact[]) => ({
  customerNumber: CN,
  newContacts,
  oldContacts,
});

const test = apiTest.extend(
  'entries',
  { scope: 'file' },
  async ({ database }) =>
    () =>
      auditEntriesOf(database.db, 'portal-access.'),
);

// The cast comes first: its account gets the contact.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await addContact(database.db, CN, 'pat@acme.example', viewer);
});

const initial: Contact[] = [
  { email: 'boss@acme.example', role: admin },
  { email: 'reader@acme.example', role: viewer },
  { email: 'pat@acme.example', role: viewer },
];

describe('portal-access audit', () => {
  test('writes nothing for a refused save (viewer, invalid row) or a save that changes nothing', async ({
    api,
    entries,
    cast: { boss, reader },
  }) => {
    await api.refused(
      reader,
      portalAccessApi.set,
      save([...initial, { email: 'x@acme.example', role: viewer }], initial),
      403,
    );
    await api.refused(
      boss,
      portalAccessApi.set,
      save([...initial, { email: 'bad', role: viewer }], initial),
      400,
    );
    await api.ok(boss, portalAccessApi.set, save(initial, initial));
    expect(await entries()).toEqual([]);
  });

  test('writes one entry per contact added, changed and removed, by the user, with the request and address', async ({
    api,
    entries,
    cast: { boss },
  }) => {
    const next: Contact[] = [
      { email: 'boss@acme.example', role: admin },
      { email: 'pat@acme.example', role: admin },
      { email: 'new@acme.example', role: viewer },
    ];
    await api.ok(boss, portalAccessApi.set, save(next, initial));
    const rows = await entries();
    const by = (action: string) => rows.filter((r) => r.action === action);
    expect(rows).toHaveLength(3);
    for (const r of rows)
      expect(r).toMatchObject({
        customerNumber: CN,
        actorKind: 'user',
        actorName: 'boss@acme.example',
        requestId: expect.any(String),
        clientIp: expect.any(String),
        objectType: 'contact',
      });
    expect(by('portal-access.contact.removed')).toMatchObject([
      { objectId: 'reader@acme.example', before: { role: viewer }, after: null },
    ]);
    expect(by('portal-access.contact.changed')).toMatchObject([
      { objectId: 'pat@acme.example', before: { role: viewer }, after: { role: admin } },
    ]);
    expect(by('portal-access.contact.added')).toMatchObject([
      { objectId: 'new@acme.example', before: null, after: { role: viewer } },
    ]);
  });
});
