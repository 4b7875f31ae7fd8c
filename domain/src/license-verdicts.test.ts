import { describe, expect, it } from 'vitest';
import { verificationSummary } from './license-verdicts.ts';

const of = (...verdicts: string[]) => verdicts.map((verdict) => ({ verdict }));

describe('verificationSummary (the CLI and the Verify dialog say the same)', () => {
  it('counts bad lines, unreadable ones included, against the valid feature lines', () => {
    expect(verificationSummary(of('valid', 'valid'))).toBe('all 2 feature lines valid');
    expect(verificationSummary(of('valid', 'invalid'))).toBe('1 bad line; 1 of 2 feature lines valid');
    expect(verificationSummary(of('foreign', 'unsigned', 'valid'), 1)).toBe(
      '3 bad lines; 1 of 3 feature lines valid',
    );
    expect(verificationSummary([])).toBe('no FEATURE or INCREMENT line to verify');
  });
});
