import { describe, expect, it } from 'vitest';
import { formatAmount, formatCount } from './amounts.ts';

describe('formatAmount', () => {
  it('always shows two decimals and thousands separators', () => {
    expect(formatAmount(122868.5)).toBe('122,868.50');
    expect(formatAmount(98690.52)).toBe('98,690.52');
    expect(formatAmount(1000)).toBe('1,000.00');
    expect(formatAmount(1234567.891)).toBe('1,234,567.89');
    expect(formatAmount(-2500.5)).toBe('-2,500.50');
    expect(formatAmount(0)).toBe('0.00');
  });
});

describe('formatCount', () => {
  it('shows thousands separators without padding decimals', () => {
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(12)).toBe('12');
  });
});
