import { noticesApi } from '@lp/contract/notices/api';
import { describe, expect } from 'vitest';
import { acme, apiTest as test } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';

/*
 * Issue 21: a user's notice thresholds are audited like the account's notice types (decision 039): one
 * 'notices.choices.changed' entry per save, by that user, with what applied before and what applies after; a
 * refused or invalid save writes none.
 */

const CN = acme.customerNumber;

describe('notice choices audit', () => {
  test('one entry per save with the actor and before/after; refused and invalid saves write none', async ({
    api,
    database,
    cast: { reader, outsider },
  }) => {
    const week = { expiryDays: [7 as const], usagePercents: [95 as const], runOut: false };
    await api.refused(outsider, noticesApi.setChoices, { customerNumber: CN, ...week }, 403);
    await api.refused(reader, noticesApi.setChoices, { customerNumber: CN, ...week, expiryDays: [15] }, 400);
    expect(await auditEntriesOf(database.db, 'notices.')).toEqual([]);

    await api.ok(reader, noticesApi.setChoices, { customerNumber: CN, ...week });
    await api.ok(reader, noticesApi.setChoices, { customerNumber: CN, ...week, runOut: true });
    const rows = await auditEntriesOf(database.db, 'notices.');
    expect(rows).toHaveLength(2);
    const byReader = {
      customerNumber: CN,
      action: 'notices.choices.changed',
      actorKind: 'user',
      actorName: 'reader@acme.example',
      objectType: 'notice-choices',
      objectId: 'reader@acme.example',
    };
    // Before the first save every notice applied (no choices saved = everything).
    expect(rows[0]).toMatchObject({
      ...byReader,
      before: { expiryDays: [90, 30, 7], usagePercents: [80, 95], runOut: true },
      after: week,
    });
    // The entry keeps the fields that changed.
    expect(rows[1]).toMatchObject({ ...byReader, before: { runOut: false }, after: { runOut: true } });
  });
});
