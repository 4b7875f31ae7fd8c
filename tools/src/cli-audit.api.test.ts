import { auditEntriesOf } from '@lp/server/test/audit-entries';
import { buildElasticServer } from '@lp/server/test/elastic-factories';
import { buildAccount } from '@lp/server/test/factories';
import { signInAs } from '@lp/server/test/sign-in';
import { createTestDatabase, type TestDatabase } from '@lp/server/test/test-db';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { elastic } from './elastic.ts';
import { tokens } from './tokens.ts';

/*
 * Issue 13 §1: API tokens and license-server credentials created or revoked with `npm run cli` are audited as
 * an automated action of the command line (no portal user runs it).
 */

const CN = '5500001';

let database: TestDatabase;
let clsId: string;
let userId: string;
const lines: string[] = [];
const out = (line: string) => lines.push(line);

beforeAll(async () => {
  database = await createTestDatabase();
  await buildAccount(database.db, { customerNumber: CN, name: 'Acme' });
  clsId = await buildElasticServer(database.db, CN);
  ({ userId } = await signInAs(database.db, 'dev@acme.example'));
  // The commands tell the operator the id on stderr; keep the test output quiet.
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await database?.close();
});

const byCli = {
  actorKind: 'automated',
  actorId: null,
  actorName: expect.stringMatching(/^Automated Action \(command line/),
  requestId: null,
  clientIp: null,
};

describe('CLI audit', () => {
  it('token create and revoke write one vendor-wide entry per token, never the token', async () => {
    await tokens.create(database.db, { email: 'dev@acme.example', expiresInDays: 30 }, out);
    await tokens.create(database.db, { email: 'dev@acme.example', name: 'nightly', expiresInDays: 90 }, out);
    const token = lines.at(-2)!;
    let rows = await auditEntriesOf(database.db, 'auth.api-token.');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      ...byCli,
      customerNumber: null,
      action: 'auth.api-token.created',
      objectType: 'api-token',
      before: null,
      after: { userId, name: 'command line', expiresAt: expect.stringMatching(/^\d{4}-/) },
    });
    expect(rows[1].after).toEqual({ userId, name: 'nightly', expiresAt: expect.stringMatching(/^\d{4}-/) });
    expect(JSON.stringify(rows)).not.toContain(token);

    // Revoking all of the user's tokens: one entry per token; a second run revokes (and records) nothing.
    await tokens.revoke(database.db, { user: 'dev@acme.example' }, out);
    await tokens.revoke(database.db, { user: 'dev@acme.example' }, out);
    await expect(tokens.revoke(database.db, { id: rows[0].objectId }, out)).rejects.toThrow(
      'No active token',
    );
    rows = (await auditEntriesOf(database.db, 'auth.api-token.')).filter(
      (r) => r.action === 'auth.api-token.revoked',
    );
    expect(rows.map((r) => r.objectId).sort()).toEqual(
      (await auditEntriesOf(database.db, 'auth.api-token.created')).map((r) => r.objectId).sort(),
    );
    expect(rows[0]).toMatchObject({
      ...byCli,
      customerNumber: null,
      before: { revokedAt: null },
      after: { revokedAt: expect.stringMatching(/^\d{4}-/) },
    });
  });

  it('cls-credential issue and revoke write one entry of the account each; a failed revoke writes none', async () => {
    await elastic.issue(database.db, CN, undefined, out);
    const rows = await auditEntriesOf(database.db, 'cls-api.credential.');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...byCli,
      customerNumber: CN,
      action: 'cls-api.credential.issued',
      objectType: 'cls-credential',
      after: { clsId, createdBy: 'cli' },
    });
    const id = rows[0].objectId;
    await elastic.revoke(database.db, id, out);
    await expect(elastic.revoke(database.db, id, out)).rejects.toThrow('No active credential');
    await expect(elastic.issue(database.db, '5599999', undefined, out)).rejects.toThrow();
    const after = await auditEntriesOf(database.db, 'cls-api.credential.');
    expect(after.map((r) => r.action)).toEqual(['cls-api.credential.issued', 'cls-api.credential.revoked']);
    expect(after[1]).toMatchObject({ ...byCli, customerNumber: CN, objectId: id });
  });
});
