import fs from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTACTS_MAX,
  checkContacts,
  contactMessages,
  firstContactProblem,
  freeMailCheckFromList,
  isValidEmail,
  sameContactList,
  sameContactSet,
} from './contacts.ts';
import { isFreeMail } from './free-mail.ts';
import { contactRoles } from './policy.ts';

const { admin, viewer, coordinator } = contactRoles;
const require = createRequire(import.meta.url);
const freeList = fs.readFileSync(require.resolve('freemail/data/free.txt'), 'utf8');
const browserCheck = freeMailCheckFromList(freeList);

describe('e-mail format', () => {
  it('accepts ordinary corporate addresses in any case', () => {
    for (const ok of ['a@acme.example', 'First.Last+tag@Sub.Acme-Corp.com', "o'neil@acme.co.uk"]) {
      expect(isValidEmail(ok), ok).toBe(true);
    }
  });

  it('refuses text that is not an address', () => {
    for (const bad of [
      '',
      'acme.example',
      'a@',
      '@acme.example',
      'a@acme',
      'a b@acme.example',
      'a@@acme.example',
      'a..b@acme.example',
      'a@acme..example',
      `${'a'.repeat(250)}@acme.example`,
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }).filter((s) => !s.includes('@')),
        (s) => {
          expect(isValidEmail(s)).toBe(false);
        },
      ),
    );
  });
});

describe('free-mail check', () => {
  it('the server check (freemail package) refuses webmail, sub-domains and disposable domains, in any case', () => {
    expect(isFreeMail('someone@gmail.com')).toBe(true);
    expect(isFreeMail('Someone@GMAIL.com')).toBe(true);
    expect(isFreeMail('someone@mail.yahoo.com')).toBe(true);
    expect(isFreeMail('someone@mailinator.com')).toBe(true);
    expect(isFreeMail('someone@acme.example')).toBe(false);
  });

  it('the browser check over the package list refuses every listed domain and its sub-domains', () => {
    // A few entries of the list are not domains (no dot); no address can be at them.
    const domains = freeList.split('\n').filter((d) => d.includes('.'));
    expect(domains.length).toBeGreaterThan(1000);
    fc.assert(
      fc.property(fc.constantFrom(...domains), fc.stringMatching(/^[a-z0-9]{1,10}$/), (domain, local) => {
        expect(browserCheck(`${local}@${domain}`)).toBe(true);
        expect(browserCheck(`${local}@mail.${domain.toUpperCase()}`)).toBe(true);
      }),
    );
    expect(browserCheck('x@acme.example')).toBe(false);
    expect(browserCheck('x@gmail.com.acme.example')).toBe(false);
  });

  it('the browser check never refuses what the server accepts (the server adds disposable domains)', () => {
    for (const webmail of ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'gmx.de']) {
      expect(browserCheck(`someone@${webmail}`)).toBe(true);
      expect(isFreeMail(`someone@${webmail}`)).toBe(true);
    }
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}\.(com|net|org|de)$/), (domain) => {
        if (browserCheck(`someone@${domain}`)) expect(isFreeMail(`someone@${domain}`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('checkContacts', () => {
  const saved = [
    { email: 'boss@acme.example', role: admin },
    { email: 'asc@acme.example', role: coordinator },
  ];

  it('accepts a valid list and normalises e-mails to lower case', () => {
    const check = checkContacts(
      [...saved, { email: ' New.Person@ACME.example ', role: viewer }],
      saved,
      isFreeMail,
    );
    expect(check.valid).toBe(true);
    expect(check.normalised[2]).toEqual({ email: 'new.person@acme.example', role: viewer });
  });

  it('gives the spec message per row: required, format, free domain, role required', () => {
    const check = checkContacts(
      [
        ...saved,
        { email: '', role: viewer },
        { email: 'not-an-email', role: viewer },
        { email: 'me@gmail.com', role: viewer },
        { email: 'ok@acme.example', role: '' },
        { email: 'odd@acme.example', role: 'Owner' },
        { email: 'BOSS@acme.example', role: viewer },
      ],
      saved,
      isFreeMail,
    );
    expect(check.valid).toBe(false);
    expect(check.rows.slice(2)).toEqual([
      { email: 'Email is required.' },
      { email: 'Incorrect Email Format.' },
      { email: 'Free domain is not allowed. Use a corporate e-mail address.' },
      { role: 'Role is required.' },
      { role: contactMessages.roleInvalid },
      { email: contactMessages.duplicate },
    ]);
    expect(firstContactProblem(check)).toBe('Email is required.');
  });

  it('keeps the Support Coordinator contact: it cannot be added, changed or removed', () => {
    const added = checkContacts(
      [...saved, { email: 'x@acme.example', role: coordinator }],
      saved,
      isFreeMail,
    );
    expect(added.rows[2]).toEqual({ role: contactMessages.coordinatorProtected });
    const removed = checkContacts([saved[0]], saved, isFreeMail);
    expect(firstContactProblem(removed)).toBe(contactMessages.coordinatorProtected);
    const changed = checkContacts([saved[0], { email: 'asc@acme.example', role: admin }], saved, isFreeMail);
    expect(firstContactProblem(changed)).toBe(contactMessages.coordinatorProtected);
    const renamed = checkContacts(
      [saved[0], { email: 'asc2@acme.example', role: coordinator }],
      saved,
      isFreeMail,
    );
    expect(renamed.valid).toBe(false);
  });

  it('limits the list length', () => {
    const many = Array.from({ length: CONTACTS_MAX + 1 }, (_, i) => ({
      email: `u${i}@acme.example`,
      role: viewer,
    }));
    expect(firstContactProblem(checkContacts(many, [], isFreeMail))).toBe(contactMessages.tooMany);
  });

  it('compares lists as sets for conflicts and in order for changes', () => {
    const a = [saved[0], saved[1]];
    const b = [saved[1], { email: 'BOSS@acme.example', role: admin }];
    expect(sameContactSet(a, b)).toBe(true);
    expect(sameContactList(a, b)).toBe(false);
    expect(sameContactSet(a, [saved[0], { ...saved[1], role: admin }])).toBe(false);
    fc.assert(
      fc.property(fc.shuffledSubarray(a, { minLength: 2, maxLength: 2 }), (shuffled) => {
        expect(sameContactSet(a, shuffled)).toBe(true);
      }),
    );
  });
});
