import type { BodyInput } from '@lp/contract/common/operation';
import type { fsaApi } from '@lp/contract/fsa/api';
import type { Db } from '../src/db/database.ts';
import { type entitlements, fsaPrices } from '../src/db/schema.ts';
import { buildEntitlement, dayFromToday as day } from './factories.ts';

/** A contract's prices of one part, in cents per duration (a duration left out is not offered). */
export type FsaPartPrices = Omit<typeof fsaPrices.$inferInsert, 'contractId' | 'partNumber'>;

/**
 * An FSA contract of `customerNumber` in USD with `budgetCents`, live from 30 days ago for 400 days unless told
 * otherwise, offering each part of `prices`.
 */
export async function buildFsaContract(
  db: Db,
  customerNumber: string,
  activationId: string,
  budgetCents: number,
  prices: Record<string, FsaPartPrices>,
  over: Partial<typeof entitlements.$inferInsert> = {},
) {
  const row = await buildEntitlement(db, customerNumber, {
    activationId,
    kind: 'FSA',
    licenseModel: 'FSA',
    startDate: day(-30),
    endDate: day(400),
    currency: 'USD',
    priceCents: budgetCents,
    busopsEmails: null,
    ...over,
  });
  for (const [partNumber, cents] of Object.entries(prices))
    await db.insert(fsaPrices).values({ contractId: row.id, partNumber, ...cents });
  return row;
}

export type FsaOrder = BodyInput<typeof fsaApi.order>;
export type FsaOrderLine = FsaOrder['products'][number];

/** One line of an FSA order: one count of `partNumber` for 7 days from today, unless told otherwise. */
export const fsaLine = (partNumber: string, over: Partial<FsaOrderLine> = {}): FsaOrderLine => ({
  ansysbpn: partNumber,
  ansyscount: 1,
  startdate: day(0),
  duration: '7',
  ...over,
});
