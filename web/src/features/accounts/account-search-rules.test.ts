import { describe, expect, it } from 'vitest';
import { accountCountMessage, accountOptionText, accountSearchPlan } from './account-search-rules.ts';

describe('account search box rules', () => {
  it('searches by id, by name, or by both for "number (name)"', () => {
    expect(accountSearchPlan('1001')).toEqual({
      kind: 'search',
      filter: {
        condition: 'ANY',
        criteria: [{ name: 'AccountID', method: 'CONTAINS', value: '1001', casefold: true }],
      },
    });
    expect(accountSearchPlan('(Acme)')).toEqual({
      kind: 'search',
      filter: {
        condition: 'ANY',
        criteria: [{ name: 'AccountName', method: 'CONTAINS', value: 'Acme', casefold: true }],
      },
    });
    expect(accountSearchPlan('acme')).toMatchObject({ kind: 'search' });
    const both = accountSearchPlan('1001 (Acme Corp)');
    expect(both).toEqual({
      kind: 'search',
      filter: {
        condition: 'ALL',
        criteria: [
          { name: 'AccountID', method: 'EQUALS', value: '1001', casefold: true },
          { name: 'AccountName', method: 'CONTAINS', value: 'Acme Corp', casefold: true },
        ],
      },
    });
  });
  it('rejects text that is not an account with the spec message, and ignores empty text', () => {
    expect(accountSearchPlan('12 (ab')).toEqual({
      kind: 'invalid',
      message: 'Invalid filter text. Filter by account ID or name.',
    });
    expect(accountSearchPlan('   ')).toEqual({ kind: 'none' });
  });
  it('judges the count: none, too many (at or above 500), or fine', () => {
    expect(accountCountMessage(0, 500)).toBe('No account found.');
    expect(accountCountMessage(500, 500)).toBe('Too many accounts found. Filter by account ID or name.');
    expect(accountCountMessage(499, 500)).toBeNull();
    // The server's limit decides, whatever it is (issue 8 §3: 50 matches with ACCOUNT_LIST_MAX=20).
    expect(accountCountMessage(50, 20)).toBe('Too many accounts found. Filter by account ID or name.');
    expect(accountCountMessage(20, 20)).toBe('Too many accounts found. Filter by account ID or name.');
    expect(accountCountMessage(19, 20)).toBeNull();
  });
  it('shows options as "number (name)"', () => {
    expect(accountOptionText({ AccountID: '1001', AccountName: 'Acme' })).toBe('1001 (Acme)');
  });
});
