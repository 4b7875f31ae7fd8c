import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjustmentLimits,
  adjustmentRequest,
  adjustmentTexts,
  amountProblem,
  DEFAULT_ADJUSTMENT_PRODUCT,
} from './adjustment.ts';

describe('amountProblem', () => {
  it('asks for an amount while the field is empty or half typed', () => {
    expect(amountProblem('')).toBe(adjustmentTexts.amountMissing);
    expect(amountProblem('  ')).toBe(adjustmentTexts.amountMissing);
    expect(amountProblem('-')).toBe(adjustmentTexts.amountMissing);
    expect(amountProblem(Number.NaN)).toBe(adjustmentTexts.amountMissing);
    expect(amountProblem(Number.POSITIVE_INFINITY)).toBe(adjustmentTexts.amountMissing);
  });

  it('refuses zero and amounts that round to zero cents', () => {
    expect(amountProblem(0)).toBe(adjustmentTexts.amountZero);
    expect(amountProblem(-0)).toBe(adjustmentTexts.amountZero);
    expect(amountProblem(0.004)).toBe(adjustmentTexts.amountZero);
    expect(amountProblem('0')).toBe(adjustmentTexts.amountZero);
  });

  it('accepts credits and debits of at least one cent', () => {
    expect(amountProblem(-5)).toBeNull();
    expect(amountProblem(0.01)).toBeNull();
    expect(amountProblem('12.5')).toBeNull();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.boolean(), (cents, credit) => {
        expect(amountProblem(((credit ? -1 : 1) * cents) / 100)).toBeNull();
      }),
    );
  });
});

describe('adjustmentRequest', () => {
  it('sends the amount as a number with trimmed texts', () => {
    expect(
      adjustmentRequest('1000123', 'ACT-1', { amount: '-2.5', product: ' Credit ', note: ' goodwill ' }),
    ).toEqual({
      customerNumber: '1000123',
      activationId: 'ACT-1',
      amount: -2.5,
      product: 'Credit',
      note: 'goodwill',
    });
  });

  it('labels a blank product as the default balance adjustment', () => {
    expect(adjustmentRequest('1', 'A', { amount: 3, product: '   ', note: '' }).product).toBe(
      DEFAULT_ADJUSTMENT_PRODUCT,
    );
  });
});

describe('adjustmentLimits', () => {
  it('credits up to the used amount and debits up to the rest, in whole cents', () => {
    expect(adjustmentLimits(1000, 620.25)).toEqual({ maxCredit: 620.25, maxDebit: 379.75 });
    expect(adjustmentLimits(0.3, 0.1)).toEqual({ maxCredit: 0.1, maxDebit: 0.2 });
    expect(adjustmentLimits(100, 0)).toEqual({ maxCredit: 0, maxDebit: 100 });
  });

  it('never offers a negative debit when the entitlement is overdrawn', () => {
    expect(adjustmentLimits(100, 120)).toEqual({ maxCredit: 120, maxDebit: 0 });
  });
});
