import { contactRoles } from './policy.ts';

/** Spec 000 §3: a portal-access contact. */
export interface Contact {
  email: string;
  role: string;
}

/** Upper bound on one account's contact list, so a request cannot grow the table without limit. */
export const CONTACTS_MAX = 500;
export const EMAIL_MAX = 254;

/** Spec 000 §5 texts (the first four verbatim), plus the list rules the spec leaves unworded. */
export const contactMessages = {
  emailRequired: 'Email is required.',
  emailFormat: 'Incorrect Email Format.',
  freeDomain: 'Free domain is not allowed. Use a corporate e-mail address.',
  roleRequired: 'Role is required.',
  roleInvalid: `Role must be ${contactRoles.admin} or ${contactRoles.viewer}.`,
  duplicate: 'This e-mail address is already in the list.',
  coordinatorProtected: 'The Support Coordinator contact cannot be added, changed or removed.',
  tooMany: `At most ${CONTACTS_MAX} contacts are allowed.`,
  conflict: 'The contact list was changed by someone else. Reload and try again.',
} as const;

/** The roles a contact may be given in the form; the coordinator role is never selectable (spec 000 §4.5). */
export const selectableContactRoles: readonly string[] = [contactRoles.admin, contactRoles.viewer];

/** Spec 000 §5 "an email matches a standard case-insensitive pattern". */
const EMAIL_PATTERN = /^[a-z0-9._%+'-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function isValidEmail(email: string): boolean {
  const e = email.trim();
  return e.length <= EMAIL_MAX && EMAIL_PATTERN.test(e) && !e.includes('..');
}

/** Answers whether an address is at a free or consumer mail domain. */
export type FreeMailCheck = (email: string) => boolean;

/**
 * A free-mail check over a list of domains: an address is free when its domain or any parent domain is listed,
 * so "x@mail.gmail.com" counts like "x@gmail.com". The product's check (`isFreeMail` in free-mail.ts, used by
 * the server and by the form) is this function over the maintained free and disposable list.
 */
export function freeMailCheckFromList(list: Iterable<string>): FreeMailCheck {
  const domains = new Set<string>();
  for (const d of list) {
    const domain = d.trim().toLowerCase();
    if (domain) domains.add(domain);
  }
  return (email) => {
    const labels = normaliseEmail(email).split('@').pop()?.split('.') ?? [];
    for (let i = 0; i < labels.length - 1; i++) {
      if (domains.has(labels.slice(i).join('.'))) return true;
    }
    return false;
  };
}

export const isCoordinator = (c: Contact) => c.role === contactRoles.coordinator;

export interface ContactErrors {
  email?: string;
  role?: string;
}

export interface ContactListCheck {
  /** Per row, in the list's order; an empty object for a valid row. */
  rows: ContactErrors[];
  /** A problem of the list as a whole (too many, coordinator changed). */
  list?: string;
  valid: boolean;
  /** The list as stored: e-mails trimmed and lower case. */
  normalised: Contact[];
}

const key = (c: Contact) => `${normaliseEmail(c.email)}\u0000${c.role}`;

/**
 * The rules of a contact list (spec 000 §5, §4.5), for the form (per-row messages) and the server (first
 * message). `saved` is the stored list: its Support Coordinator contacts must come back unchanged and no new
 * coordinator may appear.
 */
export function checkContacts(
  contacts: readonly Contact[],
  saved: readonly Contact[],
  isFreeMail: FreeMailCheck,
): ContactListCheck {
  const savedCoordinators = new Set(saved.filter(isCoordinator).map(key));
  const seen = new Set<string>();
  const normalised: Contact[] = [];
  const rows = contacts.map((contact): ContactErrors => {
    const errors: ContactErrors = {};
    const email = normaliseEmail(contact.email);
    if (!email) errors.email = contactMessages.emailRequired;
    else if (!isValidEmail(email)) errors.email = contactMessages.emailFormat;
    else if (isFreeMail(email)) errors.email = contactMessages.freeDomain;
    else if (seen.has(email)) errors.email = contactMessages.duplicate;
    if (email) seen.add(email);
    if (!contact.role) errors.role = contactMessages.roleRequired;
    else if (isCoordinator(contact)) {
      if (!savedCoordinators.has(key(contact))) errors.role = contactMessages.coordinatorProtected;
    } else if (!selectableContactRoles.includes(contact.role)) errors.role = contactMessages.roleInvalid;
    normalised.push({ email, role: contact.role });
    return errors;
  });
  const kept = new Set(normalised.filter(isCoordinator).map(key));
  let list: string | undefined;
  if (contacts.length > CONTACTS_MAX) list = contactMessages.tooMany;
  else if ([...savedCoordinators].some((k) => !kept.has(k))) list = contactMessages.coordinatorProtected;
  const valid = !list && rows.every((r) => !r.email && !r.role);
  return { rows, list, valid, normalised };
}

/** The first problem of a checked list in words (the server's 400), or null when the list is valid. */
export function firstContactProblem(check: ContactListCheck): string | null {
  if (check.list) return check.list;
  const row = check.rows.find((r) => r.email || r.role);
  return row ? (row.email ?? row.role ?? null) : null;
}

/** Two lists hold the same contacts, ignoring order and e-mail case (the optimistic-concurrency comparison). */
export function sameContactSet(a: readonly Contact[], b: readonly Contact[]): boolean {
  const left = new Set(a.map(key));
  const right = new Set(b.map(key));
  return left.size === right.size && [...left].every((k) => right.has(k));
}

/** Whether the form differs from the saved list, in order (Save is enabled only when it changed). */
export function sameContactList(a: readonly Contact[], b: readonly Contact[]): boolean {
  return a.length === b.length && a.every((c, i) => key(c) === key(b[i]));
}
