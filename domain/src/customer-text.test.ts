import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { customerDisplay, parseCustomerText } from './customer-text.ts';

describe('parseCustomerText', () => {
  it('parses the three spec forms', () => {
    expect(parseCustomerText('1000123 (Acme Corp)')).toEqual({ number: '1000123', name: 'Acme Corp' });
    expect(parseCustomerText(' 1000123 ')).toEqual({ number: '1000123' });
    expect(parseCustomerText('(Acme (EU) Ltd)')).toEqual({ name: 'Acme (EU) Ltd' });
    expect(parseCustomerText('acme')).toEqual({ name: 'acme' });
  });
  it('rejects empty and malformed text', () => {
    expect(parseCustomerText('')).toBeNull();
    expect(parseCustomerText('12 (')).toBeNull();
    expect(parseCustomerText('x) y')).toBeNull();
  });
  it('round-trips the display string of any customer', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,10}$/),
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() === s && s.length > 0),
        (customerNumber, customerName) => {
          expect(parseCustomerText(customerDisplay({ customerNumber, customerName }))).toEqual({
            number: customerNumber,
            name: customerName,
          });
        },
      ),
    );
  });
});
