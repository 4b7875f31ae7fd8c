/**
 * Rules of the elastic license server credentials (spec 001 §2.4, §4 "Credentials page", §5): the PIN and the
 * allowed-usernames list. Shared by the server (which refuses bad input) and the page (which enables buttons).
 */

export const PIN_LENGTH = 6;
/** Bounds the spec leaves open: a license server checks names per request, so the list stays small. */
export const USERNAMES_MAX = 1000;
export const USERNAME_MAX_LENGTH = 256;

const pinPattern = /^[0-9]{6}$/;
/** Visible ASCII only: no whitespace, no control characters, nothing outside ASCII. */
const usernamePattern = /^[\x21-\x7e]+$/;

/** Exactly six ASCII digits: no sign, no decimal point, no spaces. */
export function isValidPin(pin: string): boolean {
  return pinPattern.test(pin);
}

/**
 * A list is valid when every name is non-empty visible ASCII (so no whitespace) and no two names are equal
 * ignoring case. The empty list is valid: it allows every user who knows the PIN.
 */
export function isValidUsernameList(users: readonly string[]): boolean {
  if (users.length > USERNAMES_MAX) return false;
  const seen = new Set<string>();
  for (const user of users) {
    if (user.length > USERNAME_MAX_LENGTH || !usernamePattern.test(user)) return false;
    const key = user.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/**
 * The textarea's text as a list, one name per line. An empty text is the empty list; one line break at the
 * very end is tolerated (editors and paste add it); any other empty line stays in the list and makes it invalid.
 */
export function usernamesFromText(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function usernamesToText(users: readonly string[]): string {
  return users.join('\n');
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** §4: which PIN buttons are enabled, from the PIN being edited and the PIN as saved. */
export function pinActions(pin: string, savedPin: string, viewOnly: boolean) {
  const valid = isValidPin(pin);
  const changed = pin !== savedPin;
  return {
    valid,
    changed,
    change: !viewOnly && valid && changed,
    cancel: changed && isValidPin(savedPin),
    exportFile: valid && !changed,
  };
}

/** §4: which username buttons are enabled, from the textarea text and the list as saved. */
export function usernameActions(text: string, savedUsers: readonly string[], viewOnly: boolean) {
  const users = usernamesFromText(text);
  const valid = isValidUsernameList(users);
  const changed = !sameList(users, savedUsers);
  return { users, valid, changed, save: !viewOnly && valid && changed, cancel: changed };
}
