import type { FsaContract, FsaProduct } from '@lp/contract/fsa/schemas';
import { describe, expect, it } from 'vitest';
import { contractLabel, defaultContractId, offeredContracts, orderContext } from './order-contracts.ts';

const TODAY = '2026-11-24';

function contract(entitlementId: string, over: Partial<FsaContract> = {}): FsaContract {
  return {
    entitlementId,
    orderId: `O-${entitlementId}`,
    poNumber: null,
    startDate: '2026-01-01',
    endDate: '2027-06-30',
    currency: 'EUR',
    budgetCents: 100_000,
    usedCents: 0,
    remainingCents: 100_000,
    usedPercentage: 0,
    remainingdays: 218,
    usedDays: 327,
    usedDaysPercentage: 60,
    colours: { remainingdays: 'green', usedpercentage: 'green' },
    active: true,
    busopsEmails: [],
    lastOrderedAt: null,
    hasProducts: true,
    dailySpend: [],
    ...over,
  };
}

describe('offeredContracts', () => {
  it('offers contracts ending today or later, never one without an end date', () => {
    const list = [
      contract('ENDED', { endDate: '2026-11-23' }),
      contract('TODAY', { endDate: TODAY }),
      contract('OPEN', { endDate: null }),
      contract('LATER'),
    ];
    expect(offeredContracts(list, TODAY).map((c) => c.entitlementId)).toEqual(['TODAY', 'LATER']);
  });

  it("labels each with its id and '(ends on yyyy-mm-dd)'", () => {
    const [c] = offeredContracts([contract('FSA-1')], TODAY);
    expect(c && contractLabel(c)).toBe('FSA-1 (ends on 2027-06-30)');
  });
});

describe('defaultContractId', () => {
  const list = offeredContracts(
    [
      contract('A'),
      contract('B', { lastOrderedAt: '2026-10-01 10:00:00' }),
      contract('C', { lastOrderedAt: '2026-11-02 09:00:00' }),
    ],
    TODAY,
  );

  it('picks the contract ordered against most recently', () => {
    expect(defaultContractId(list, null)).toBe('C');
  });

  it('picks the first offered contract when none was ordered against', () => {
    expect(defaultContractId(offeredContracts([contract('X'), contract('Y')], TODAY), null)).toBe('X');
  });

  it('keeps the contract chosen with the Order button, unless it is not offered', () => {
    expect(defaultContractId(list, 'A')).toBe('A');
    expect(defaultContractId(list, 'GONE')).toBe('C');
    expect(defaultContractId([], null)).toBeNull();
  });
});

describe('orderContext', () => {
  it("carries the contract's term, currency and balance and each product's prices", () => {
    const product: FsaProduct = {
      partNumber: 'P1',
      name: 'Solver',
      price7Days: 100,
      price30Days: null,
      price60Days: null,
      price90Days: 900,
      price180Days: null,
      price1Year: 3000,
      manual: false,
    };
    const [c] = offeredContracts([contract('FSA-1', { remainingCents: 1234 })], TODAY);
    if (!c) throw new Error('offered');
    const ctx = orderContext(c, [product], TODAY, true);
    expect(ctx.contract).toEqual({
      entitlementId: 'FSA-1',
      startDate: '2026-01-01',
      endDate: '2027-06-30',
      currency: 'EUR',
      remainingCents: 1234,
    });
    expect(ctx.products[0]?.prices).toEqual({
      price7Days: 100,
      price30Days: null,
      price60Days: null,
      price90Days: 900,
      price180Days: null,
      price1Year: 3000,
    });
    expect(ctx.busops).toBe(true);
  });
});
