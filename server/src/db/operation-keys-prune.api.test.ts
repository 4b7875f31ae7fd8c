import { expect } from 'vitest';
import { apiTest as test } from '../../test/api-fixture.ts';
import { OPERATION_KEY_DAYS, pruneOperationKeys } from './operation-keys.ts';
import { operationKeys } from './schema.ts';

const DAY = 86_400_000;

test('keys claimed more than the retention ago are deleted once a day; newer ones still answer their retries', async ({
  database,
}) => {
  const { db } = database;
  const now = new Date('2026-11-27T03:00:00Z');
  const claimed = (key: string, daysAgo: number) => ({
    key,
    operation: 'fsaOrder',
    userEmail: 'boss@example.com',
    result: { requestHash: 'h', value: null },
    createdAt: new Date(now.getTime() - daysAgo * DAY),
  });
  await db
    .insert(operationKeys)
    .values([
      claimed('key-older-than-retention', OPERATION_KEY_DAYS + 1),
      claimed('key-just-inside-retention', OPERATION_KEY_DAYS - 1),
      claimed('key-from-today', 0),
    ]);

  expect(await pruneOperationKeys(db, now)).toBe(1);
  const left = (await db.select({ key: operationKeys.key }).from(operationKeys)).map((r) => r.key).sort();
  expect(left).toEqual(['key-from-today', 'key-just-inside-retention']);
  // A second run the same day (a node that died before marking the run finished) deletes nothing more.
  expect(await pruneOperationKeys(db, now)).toBe(0);
});
