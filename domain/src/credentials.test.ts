import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isValidPin,
  isValidUsernameList,
  PIN_LENGTH,
  pinActions,
  USERNAME_MAX_LENGTH,
  USERNAMES_MAX,
  usernameActions,
  usernamesFromText,
  usernamesToText,
} from './credentials.ts';

const digit = fc.constantFrom(...'0123456789');
const sixDigits = fc.string({ unit: digit, minLength: PIN_LENGTH, maxLength: PIN_LENGTH });
/** Names of visible ASCII characters, the only characters a valid name may contain. */
const visibleAscii = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));
const username = fc.string({ unit: visibleAscii, minLength: 1, maxLength: 30 });
const uniqueNames = fc.uniqueArray(username, { selector: (u) => u.toLowerCase(), maxLength: 40 });

describe('isValidPin', () => {
  it('accepts exactly six digits, leading zeros included', () => {
    for (const pin of ['000000', '123456', '999999', '012345']) expect(isValidPin(pin), pin).toBe(true);
  });

  it('refuses other lengths, signs, decimal points, spaces and non-ASCII digits', () => {
    for (const pin of [
      '',
      '12345',
      '1234567',
      '12345.',
      '1234.5',
      '+12345',
      '-12345',
      ' 123456',
      '123456 ',
      '12 456',
      '1e5000',
      '１２３４５６',
      '١٢٣٤٥٦',
      '123456\n',
    ]) {
      expect(isValidPin(pin), JSON.stringify(pin)).toBe(false);
    }
  });

  it('property: every string of six digits is valid', () => {
    fc.assert(fc.property(sixDigits, (pin) => isValidPin(pin)));
  });

  it('property: a valid PIN is exactly six characters, each 0-9', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), (s) => {
        expect(isValidPin(s)).toBe(s.length === 6 && [...s].every((c) => c >= '0' && c <= '9'));
      }),
    );
  });
});

describe('isValidUsernameList', () => {
  it('accepts the empty list (everyone with the PIN) and distinct ASCII names', () => {
    expect(isValidUsernameList([])).toBe(true);
    expect(isValidUsernameList(['alice', 'bob.smith', 'DOMAIN\\carol', 'dave@example.com'])).toBe(true);
  });

  it('refuses empty names, whitespace, non-ASCII, control characters and case-insensitive duplicates', () => {
    for (const list of [
      [''],
      ['alice', ''],
      ['al ice'],
      ['alice\t'],
      ['bob\u00a0'],
      ['jürgen'],
      ['名前'],
      ['a\u0000b'],
      ['a\u007fb'],
      ['alice', 'ALICE'],
      ['Bob', 'carol', 'bob'],
    ]) {
      expect(isValidUsernameList(list), JSON.stringify(list)).toBe(false);
    }
  });

  it('bounds the number and the length of the names', () => {
    const many = Array.from({ length: USERNAMES_MAX }, (_, i) => `user${i}`);
    expect(isValidUsernameList(many)).toBe(true);
    expect(isValidUsernameList([...many, 'one-more'])).toBe(false);
    expect(isValidUsernameList(['x'.repeat(USERNAME_MAX_LENGTH)])).toBe(true);
    expect(isValidUsernameList(['x'.repeat(USERNAME_MAX_LENGTH + 1)])).toBe(false);
  });

  it('property: distinct visible-ASCII names are always valid', () => {
    fc.assert(fc.property(uniqueNames, (users) => isValidUsernameList(users)));
  });

  it('property: adding a name that differs from a listed one only in case makes the list invalid', () => {
    fc.assert(
      fc.property(
        uniqueNames.filter((u) => u.length > 0),
        fc.nat(),
        fc.boolean(),
        (users, at, upper) => {
          const twin = users[at % users.length];
          const variant = upper ? twin.toUpperCase() : twin.toLowerCase();
          expect(isValidUsernameList([...users, variant])).toBe(false);
        },
      ),
    );
  });

  it('property: a name containing any whitespace or non-ASCII character makes the list invalid', () => {
    const bad = fc.constantFrom(' ', '\t', '\r', '\u00a0', '\u2003', 'é', 'ß', '😀', '\u0001');
    fc.assert(
      fc.property(uniqueNames, username, bad, fc.nat(), (users, name, ch, at) => {
        const cut = at % (name.length + 1);
        const broken = name.slice(0, cut) + ch + name.slice(cut);
        expect(isValidUsernameList([...users, broken])).toBe(false);
      }),
    );
  });
});

describe('usernamesFromText / usernamesToText', () => {
  it('reads one name per line; empty text is the empty list; one final line break is tolerated', () => {
    expect(usernamesFromText('')).toEqual([]);
    expect(usernamesFromText('alice')).toEqual(['alice']);
    expect(usernamesFromText('alice\nbob')).toEqual(['alice', 'bob']);
    expect(usernamesFromText('alice\r\nbob\r\n')).toEqual(['alice', 'bob']);
    // Empty lines in the middle, a blank first line or two trailing breaks stay and make the list invalid.
    expect(isValidUsernameList(usernamesFromText('alice\n\nbob'))).toBe(false);
    expect(isValidUsernameList(usernamesFromText('\nalice'))).toBe(false);
    expect(isValidUsernameList(usernamesFromText('alice\n\n'))).toBe(false);
    expect(isValidUsernameList(usernamesFromText('\n'))).toBe(false);
  });

  it('property: text written from a list reads back as the same list', () => {
    fc.assert(
      fc.property(uniqueNames, (users) => {
        expect(usernamesFromText(usernamesToText(users))).toEqual(users);
      }),
    );
  });
});

describe('pinActions (spec 001 §4)', () => {
  it('Change needs a valid, different PIN and edit rights; Cancel a difference and a valid saved PIN', () => {
    expect(pinActions('123456', '123456', false)).toMatchObject({
      change: false,
      cancel: false,
      exportFile: true,
    });
    expect(pinActions('654321', '123456', false)).toMatchObject({
      change: true,
      cancel: true,
      exportFile: false,
    });
    expect(pinActions('65432', '123456', false)).toMatchObject({
      change: false,
      cancel: true,
      exportFile: false,
    });
    expect(pinActions('654321', '123456', true)).toMatchObject({ change: false, cancel: true });
    // Without a valid saved PIN there is nothing to go back to.
    expect(pinActions('654321', '', false)).toMatchObject({ change: true, cancel: false });
  });

  it('property: export is possible exactly when the PIN is valid and saved', () => {
    fc.assert(
      fc.property(fc.oneof(sixDigits, fc.string({ maxLength: 8 })), sixDigits, (pin, saved) => {
        expect(pinActions(pin, saved, false).exportFile).toBe(pin === saved);
      }),
    );
  });
});

describe('usernameActions (spec 001 §4)', () => {
  it('Save needs a valid (or empty), different list and edit rights; Cancel a difference', () => {
    expect(usernameActions('alice', ['alice'], false)).toMatchObject({ save: false, cancel: false });
    expect(usernameActions('alice\n', ['alice'], false)).toMatchObject({ save: false, cancel: false });
    expect(usernameActions('alice\nbob', ['alice'], false)).toMatchObject({ save: true, cancel: true });
    expect(usernameActions('', ['alice'], false)).toMatchObject({ users: [], save: true, cancel: true });
    expect(usernameActions('al ice', ['alice'], false)).toMatchObject({
      valid: false,
      save: false,
      cancel: true,
    });
    expect(usernameActions('alice\nbob', ['alice'], true)).toMatchObject({ save: false, cancel: true });
  });
});
