import { describe, expect, it } from 'vitest';
import {
  collectInvites,
  csvInvites,
  groupDeletionText,
  inviteText,
  leavesAdministrators,
  membersText,
  removalText,
  WEB_INVITE_MAX,
  webDirectoryMessages,
} from './web-directory.ts';

const byIndex = (index: number, text: string) => `#${index}: ${text}`;

describe('collectInvites', () => {
  it('trims and lower-cases e-mails and collapses duplicates into the first, a later name filling an empty one', () => {
    expect(
      collectInvites(
        [
          { email: ' Ann@Acme.example ', groups: ['A'] },
          { email: 'ann@acme.example', name: ' Ann ', groups: ['B', 'A'] },
          { email: 'bob@acme.example', name: 'Bob' },
          { email: 'BOB@acme.example', name: 'Robert' },
        ],
        byIndex,
      ),
    ).toEqual({
      invites: [
        { email: 'ann@acme.example', name: 'Ann', groups: ['A', 'B'] },
        { email: 'bob@acme.example', name: 'Bob', groups: [] },
      ],
      problems: [],
    });
  });

  it('names every bad row: not an e-mail, an empty value, a name or group name too long', () => {
    const { problems } = collectInvites(
      [
        { email: 'nope' },
        { email: '' },
        { email: 'ok@acme.example', name: 'x'.repeat(201) },
        { email: 'ok2@acme.example', groups: ['g'.repeat(201)] },
        { email: 'fine@acme.example' },
      ],
      byIndex,
    );
    expect(problems).toEqual([
      '#0: "nope" is not an e-mail address.',
      '#1: An empty value is not an e-mail address.',
      `#2: ${webDirectoryMessages.nameTooLong}`,
      `#3: ${webDirectoryMessages.groupNameTooLong}`,
    ]);
  });
});

describe('csvInvites', () => {
  it('reads email,name[,groups] with semicolon-separated groups, numbering rows as a spreadsheet does', () => {
    const { invites, problems } = csvInvites([
      ['Email', 'Name', 'Groups'],
      ['a@acme.example', 'A', 'X; Y'],
      [''],
      ['bad', 'B', ''],
      ['c@acme.example', '', ''],
    ]);
    expect(problems).toEqual(['Row 4: "bad" is not an e-mail address.']);
    expect(invites).toEqual([
      { email: 'a@acme.example', name: 'A', groups: ['X', 'Y'] },
      { email: 'c@acme.example', name: '', groups: [] },
    ]);
  });

  it('refuses a wrong header, a file without people and one with too many', () => {
    expect(csvInvites([['mail', 'name']]).problems).toEqual([webDirectoryMessages.csvHeader]);
    expect(csvInvites([['email', 'name', 'teams']]).problems).toEqual([webDirectoryMessages.csvHeader]);
    expect(csvInvites([['email', 'name'], ['']]).problems).toEqual([webDirectoryMessages.csvEmpty]);
    expect(csvInvites([]).problems).toEqual([webDirectoryMessages.csvHeader]);
    const many = Array.from({ length: WEB_INVITE_MAX + 1 }, (_, i) => [`p${i}@acme.example`, '']);
    expect(csvInvites([['email', 'name'], ...many]).problems).toEqual([webDirectoryMessages.csvTooMany]);
  });
});

describe('leavesAdministrators', () => {
  const admin = { role: 'administrator', state: 'active' };
  it('is true when an active administrator is demoted, suspended or removed', () => {
    expect(leavesAdministrators(admin, { ...admin, role: 'member' })).toBe(true);
    expect(leavesAdministrators(admin, { ...admin, state: 'suspended' })).toBe(true);
    expect(leavesAdministrators(admin, { ...admin, state: 'removed' })).toBe(true);
  });
  it('is false for a change that keeps them, and for people who are no active administrator', () => {
    expect(leavesAdministrators(admin, admin)).toBe(false);
    expect(
      leavesAdministrators({ role: 'administrator', state: 'invited' }, { role: 'member', state: 'invited' }),
    ).toBe(false);
    expect(
      leavesAdministrators({ role: 'member', state: 'active' }, { role: 'member', state: 'suspended' }),
    ).toBe(false);
  });
});

describe('preview texts', () => {
  it('say what a change does, in the singular for one', () => {
    expect(inviteText({ invited: 1, restored: 0, unchanged: 0 })).toBe('invites 1 user');
    expect(inviteText({ invited: 2, restored: 1, unchanged: 3, groupsCreated: 1, membershipsAdded: 2 })).toBe(
      'invites 2 users; brings back 1 removed user; 3 already in the directory; creates 1 group; adds 2 group memberships',
    );
    expect(removalText('removes', { users: 3, seats: 5, sessions: 2 })).toBe(
      'removes 3 users; frees 5 named seats; ends 2 sessions',
    );
    expect(removalText('removes', { users: 1, seats: 1, sessions: 1 })).toBe(
      'removes 1 user; frees 1 named seat; ends 1 session',
    );
    expect(membersText({ added: 2, removed: 1, seatsAdded: 2, seatsRemoved: 0 })).toBe(
      'adds 2 members; removes 1 member; assigns 2 named seats',
    );
    expect(groupDeletionText('Designers', 4, 4)).toBe(
      'deletes Designers with 4 members; frees 4 named seats',
    );
  });
});
