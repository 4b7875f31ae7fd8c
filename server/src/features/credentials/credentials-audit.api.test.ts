import { credentialsApi } from '@lp/contract/credentials/api';
import { describe, expect } from 'vitest';
import { buildLicenseServer } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { REDACTED } from '../audit/service.ts';

/* Issue 13 §1: the elastic PIN (never its value) and the allowed usernames, one audit entry per change. */

const CN = acme.customerNumber;
const CLS = 'ELASTIC-CRED-AUDIT';
const server = { customerNumber: CN, clsId: CLS };

const test = apiTest.extend(
  'entries',
  { scope: 'file' },
  async ({ database }) =>
    () =>
      auditEntriesOf(database.db, 'credentials.'),
);

// The cast comes first: its account owns the server.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic', state: 'Active' });
});

const common = {
  customerNumber: CN,
  objectType: 'license-server',
  objectId: CLS,
  requestId: expect.any(String),
  clientIp: expect.any(String),
};

describe('credentials audit', () => {
  test('a generated PIN is one entry without its value; generating again (a PIN in place) writes none', async ({
    api,
    entries,
    cast: { boss, reader },
  }) => {
    // A view-only user may not set it (decision 022): refused, nothing recorded.
    await api.refused(reader, credentialsApi.generatePin, server, 403);
    const first = await api.ok(boss, credentialsApi.generatePin, server);
    await api.ok(boss, credentialsApi.generatePin, server);
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...common,
      actorKind: 'user',
      actorName: 'boss@acme.example',
      action: 'credentials.pin.generated',
      before: null,
      after: { pin: REDACTED },
    });
    expect(JSON.stringify(rows[0])).not.toContain(first.data.pin);
  });

  test('a changed PIN is one entry without its value; a refused change writes none', async ({
    api,
    entries,
    cast: { boss, reader },
  }) => {
    await api.refused(reader, credentialsApi.changePin, { ...server, pin: '123456' }, 403);
    await api.refused(boss, credentialsApi.changePin, { ...server, pin: '12' }, 400);
    expect(await entries()).toHaveLength(1);
    await api.ok(boss, credentialsApi.changePin, { ...server, pin: '654321' });
    const rows = await entries();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      ...common,
      actorName: 'boss@acme.example',
      action: 'credentials.pin.changed',
      before: null,
      after: { pin: REDACTED },
    });
    expect(JSON.stringify(rows[1])).not.toContain('654321');
  });

  test('saved usernames are one entry with the list before and after; refused or unchanged saves write none', async ({
    api,
    entries,
    cast: { boss, reader },
  }) => {
    await api.refused(reader, credentialsApi.saveUsers, { ...server, users: ['alice'] }, 403);
    await api.refused(boss, credentialsApi.saveUsers, { ...server, users: ['bad name!'] }, 400);
    await api.ok(boss, credentialsApi.saveUsers, { ...server, users: [] });
    expect((await entries()).filter((r) => r.action === 'credentials.users.changed')).toEqual([]);
    await api.ok(boss, credentialsApi.saveUsers, { ...server, users: ['alice', 'bob'] });
    const rows = (await entries()).filter((r) => r.action === 'credentials.users.changed');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...common,
      actorName: 'boss@acme.example',
      before: { users: [] },
      after: { users: ['alice', 'bob'] },
    });
  });
});
