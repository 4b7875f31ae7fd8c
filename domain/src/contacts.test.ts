import fc from 'fast-check';
import { parse } from 'tldts';
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
import { freeMailDomains, isFreeMail, publicSuffixesInList } from './free-mail.ts';
import { contactRoles } from './policy.ts';

const { admin, viewer, coordinator } = contactRoles;

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
  it('refuses webmail, sub-domains and disposable domains, in any case', () => {
    expect(isFreeMail('someone@gmail.com')).toBe(true);
    expect(isFreeMail('Someone@GMAIL.com')).toBe(true);
    expect(isFreeMail('someone@mail.yahoo.com')).toBe(true);
    expect(isFreeMail('someone@mailinator.com')).toBe(true);
    for (const webmail of [
      'yahoo.com',
      'hotmail.com',
      'outlook.com',
      'gmx.de',
      'web.de',
      'icloud.com',
      'aol.com',
    ]) {
      expect(isFreeMail(`someone@${webmail}`), webmail).toBe(true);
    }
    for (const disposable of ['guerrillamail.com', '10minutemail.com', 'yopmail.com', 'temp-mail.org']) {
      expect(isFreeMail(`someone@${disposable}`), disposable).toBe(true);
    }
    expect(isFreeMail('someone@acme.example')).toBe(false);
    expect(isFreeMail('x@gmail.com.acme.example')).toBe(false);
  });

  it('refuses every listed domain and its sub-domains', () => {
    expect(freeMailDomains.length).toBeGreaterThan(10_000);
    fc.assert(
      fc.property(
        fc.constantFrom(...freeMailDomains),
        fc.stringMatching(/^[a-z0-9]{1,10}$/),
        (domain, local) => {
          expect(isFreeMail(`${local}@${domain}`)).toBe(true);
          expect(isFreeMail(`${local}@mail.${domain.toUpperCase()}`)).toBe(true);
        },
      ),
    );
  });

  it('leaves out the public suffixes in the list, so companies registered under them are not free mail', () => {
    // Every entry is checked against the public suffix list (ICANN and private sections): one that is a
    // suffix must be named in publicSuffixesInList, and each named one must still be in the list.
    const suffixes = freeMailDomains.filter(
      (d) => parse(d, { allowPrivateDomains: true }).publicSuffix === d,
    );
    expect(suffixes).toEqual([]);
    for (const suffix of publicSuffixesInList) {
      expect(parse(suffix, { allowPrivateDomains: true }).publicSuffix, suffix).toBe(suffix);
      expect(isFreeMail(`someone@acme.${suffix}`), suffix).toBe(false);
    }
    expect(isFreeMail('someone@acme.net.ua')).toBe(false);
    expect(isFreeMail('someone@acme.za.com')).toBe(false);
  });

  it('matches a list on the domain or any parent domain, not on a longer or shorter name', () => {
    const check = freeMailCheckFromList(['webmail.example', ' Mixed.Example ', '']);
    expect(check('a@webmail.example')).toBe(true);
    expect(check('a@eu.mail.webmail.example')).toBe(true);
    expect(check('a@MIXED.example')).toBe(true);
    expect(check('a@notwebmail.example')).toBe(false);
    expect(check('a@example')).toBe(false);
    expect(check('a@webmail.example.org')).toBe(false);
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
