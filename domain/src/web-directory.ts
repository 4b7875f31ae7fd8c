import { isValidEmail, normaliseEmail } from './contacts.ts';

/**
 * The web directory's rules (decision 071): an account's people and groups who hold web seats. Pure, so the
 * server (which enforces them) and the pages (which check a form or a CSV file before sending it) answer alike.
 */

/** People invited in one call, rows of one CSV file: a bound so one request cannot grow the table without limit. */
export const WEB_INVITE_MAX = 5_000;
/** The most people one directory list answers (the page filters them in the browser). */
export const WEB_USERS_LIST_MAX = 20_000;
export const WEB_NAME_MAX = 200;
export const WEB_GROUP_NAME_MAX = 200;
/** Members set on a group in one call. */
export const WEB_GROUP_MEMBERS_MAX = 20_000;

export const webUserStates = ['invited', 'active', 'suspended', 'removed'] as const;
export type WebUserState = (typeof webUserStates)[number];
export const webUserRoles = ['member', 'administrator'] as const;
export type WebUserRole = (typeof webUserRoles)[number];
export const webUserSources = ['manual', 'csv', 'sign-in', 'scim'] as const;
export type WebUserSource = (typeof webUserSources)[number];
export const webGroupSources = ['manual', 'scim'] as const;
export type WebGroupSource = (typeof webGroupSources)[number];

export const webDirectoryMessages = {
  notEmail: (email: string) => `${email === '' ? 'An empty value' : `"${email}"`} is not an e-mail address.`,
  tooMany: `At most ${WEB_INVITE_MAX.toLocaleString('en-US')} people can be invited in one call.`,
  csvTooMany: `A CSV file may hold at most ${WEB_INVITE_MAX.toLocaleString('en-US')} people.`,
  csvHeader: 'The first line of the CSV file must be the header email,name (and optionally groups).',
  csvEmpty: 'The CSV file holds no people.',
  row: (row: number, text: string) => `Row ${row}: ${text}`,
  nameTooLong: `A name must be at most ${WEB_NAME_MAX} characters.`,
  groupNameRequired: 'A group needs a name.',
  groupNameTooLong: `A group name must be at most ${WEB_GROUP_NAME_MAX} characters.`,
  groupNameTaken: (name: string) => `A group named "${name}" already exists in this directory.`,
  lastAdmin: (email: string) => `${email} is the last administrator of this directory.`,
  scimManaged: 'This group is managed by your identity provider.',
  unknownUser: 'No person with this id in the directory of this account.',
  unknownUsers: 'Some of these people are not in the directory of this account.',
  unknownGroup: 'No group with this id in the directory of this account.',
  removedUser: 'This person was removed from the directory; invite them again first.',
  emailTaken: (email: string) => `${email} is already in the directory of this account.`,
} as const;

/** One person to invite, as a form or a CSV row gives them. */
export interface InviteRow {
  email: string;
  name: string;
  groups: string[];
}

/**
 * The people of an invitation, e-mails trimmed and lower-cased and duplicates collapsed into the first (a later
 * row's name fills an empty one; groups add up), or the problems, each in `describe`'s words for the row.
 */
export function collectInvites(
  rows: readonly { email: string; name?: string; groups?: readonly string[] }[],
  describe: (index: number, text: string) => string,
): { invites: InviteRow[]; problems: string[] } {
  const byEmail = new Map<string, InviteRow>();
  const problems: string[] = [];
  rows.forEach((row, index) => {
    const email = normaliseEmail(row.email);
    const name = (row.name ?? '').trim();
    const groups = [...new Set((row.groups ?? []).map((g) => g.trim()).filter(Boolean))];
    const problem = !isValidEmail(email)
      ? webDirectoryMessages.notEmail(row.email.trim())
      : name.length > WEB_NAME_MAX
        ? webDirectoryMessages.nameTooLong
        : groups.some((g) => g.length > WEB_GROUP_NAME_MAX)
          ? webDirectoryMessages.groupNameTooLong
          : null;
    if (problem) {
      problems.push(describe(index, problem));
      return;
    }
    const seen = byEmail.get(email);
    if (!seen) byEmail.set(email, { email, name, groups });
    else {
      if (!seen.name) seen.name = name;
      for (const g of groups) if (!seen.groups.includes(g)) seen.groups.push(g);
    }
  });
  return { invites: [...byEmail.values()], problems };
}

/**
 * The rows of a CSV file already split into cells (header first): `email,name[,groups]`, groups separated by
 * semicolons. Rows are numbered as a spreadsheet shows them (the header is row 1); blank lines are skipped.
 */
export function csvInvites(cells: readonly (readonly string[])[]): {
  invites: InviteRow[];
  problems: string[];
} {
  const [header, ...rest] = cells;
  const columns = (header ?? []).map((c) => c.trim().toLowerCase());
  if (columns[0] !== 'email' || columns[1] !== 'name' || (columns.length > 2 && columns[2] !== 'groups'))
    return { invites: [], problems: [webDirectoryMessages.csvHeader] };
  const rows = rest
    .map((cells, i) => ({ cells, row: i + 2 }))
    .filter(({ cells }) => cells.some((c) => c.trim() !== ''));
  if (!rows.length) return { invites: [], problems: [webDirectoryMessages.csvEmpty] };
  if (rows.length > WEB_INVITE_MAX) return { invites: [], problems: [webDirectoryMessages.csvTooMany] };
  return collectInvites(
    rows.map(({ cells }) => ({
      email: cells[0] ?? '',
      name: cells[1] ?? '',
      groups: (cells[2] ?? '').split(';'),
    })),
    (index, text) => webDirectoryMessages.row(rows[index].row, text),
  );
}

/** Whether a change takes a person out of the directory's active administrators. */
export function leavesAdministrators(
  person: { role: string; state: string },
  after: { role: string; state: string },
): boolean {
  const isAdmin = (p: { role: string; state: string }) => p.role === 'administrator' && p.state === 'active';
  return isAdmin(person) && !isAdmin(after);
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What an invitation does, e.g. "invites 3 users; brings back 1 removed user; 2 already in the directory". */
export function inviteText(change: {
  invited: number;
  restored: number;
  unchanged: number;
  groupsCreated?: number;
  membershipsAdded?: number;
}): string {
  const parts = [`invites ${count(change.invited, 'user')}`];
  if (change.restored) parts.push(`brings back ${count(change.restored, 'removed user')}`);
  if (change.unchanged) parts.push(`${change.unchanged} already in the directory`);
  if (change.groupsCreated) parts.push(`creates ${count(change.groupsCreated, 'group')}`);
  if (change.membershipsAdded) parts.push(`adds ${count(change.membershipsAdded, 'group membership')}`);
  return parts.join('; ');
}

/** What taking people out does: "removes 3 users; frees 5 named seats; ends 2 sessions". */
export function removalText(
  verb: 'removes' | 'suspends',
  change: { users: number; seats: number; sessions: number },
) {
  return `${verb} ${count(change.users, 'user')}; frees ${count(change.seats, 'named seat')}; ends ${count(change.sessions, 'session')}`;
}

/** What a change of a group's members does: "adds 2 members; removes 1 member; assigns 2 named seats; frees 1 named seat". */
export function membersText(change: {
  added: number;
  removed: number;
  seatsAdded: number;
  seatsRemoved: number;
}) {
  const parts = [`adds ${count(change.added, 'member')}`, `removes ${count(change.removed, 'member')}`];
  if (change.seatsAdded) parts.push(`assigns ${count(change.seatsAdded, 'named seat')}`);
  if (change.seatsRemoved) parts.push(`frees ${count(change.seatsRemoved, 'named seat')}`);
  return parts.join('; ');
}

/** What deleting a group does: "deletes Designers with 4 members; frees 4 named seats". */
export function groupDeletionText(name: string, members: number, seatsRemoved: number) {
  return `deletes ${name} with ${count(members, 'member')}; frees ${count(seatsRemoved, 'named seat')}`;
}
