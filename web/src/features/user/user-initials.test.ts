import { describe, expect, it } from 'vitest';
import { userInitials } from './user-initials.ts';

describe('user initials', () => {
  it('takes first and last initial and drops a trailing (External)', () => {
    expect(userInitials('Ada Lovelace')).toBe('AL');
    expect(userInitials('Ada King Lovelace (External)')).toBe('AL');
    expect(userInitials('grace')).toBe('G');
    expect(userInitials('', 'zoe@x.example')).toBe('Z');
  });
});
