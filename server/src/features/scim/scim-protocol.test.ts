import fc from 'fast-check';
import { filter } from 'scim2-parse-filter';
import { describe, expect, it } from 'vitest';
import {
  caselessView,
  etagOf,
  namesVersion,
  pageOf,
  parseScimFilter,
  SCIM_PAGE_MAX,
  ScimError,
  scimBoolean,
  sqlNarrowing,
} from './scim-protocol.ts';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (e) {
    return e instanceof ScimError ? { status: e.status, scimType: e.scimType } : e;
  }
  return undefined;
};

describe('scimBoolean', () => {
  it('takes JSON booleans and "true"/"false" in any case and padding (Entra sends "True", "False")', () => {
    const casing = (word: string) =>
      fc
        .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
        .map((upper) => [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
    fc.assert(
      fc.property(
        fc.boolean(),
        casing('true'),
        casing('false'),
        fc.constantFrom('', ' ', '  '),
        (b, t, f, pad) => {
          expect(scimBoolean(b, 'active')).toBe(b);
          expect(scimBoolean(`${pad}${t}${pad}`, 'active')).toBe(true);
          expect(scimBoolean(`${pad}${f}${pad}`, 'active')).toBe(false);
        },
      ),
    );
  });

  it('refuses anything else with 400 invalidValue', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string().filter((s) => !['true', 'false'].includes(s.trim().toLowerCase())),
          fc.integer(),
          fc.constant(null),
          fc.object(),
        ),
        (value) => {
          expect(refusal(() => scimBoolean(value, 'active'))).toEqual({
            status: 400,
            scimType: 'invalidValue',
          });
        },
      ),
    );
  });
});

describe('pageOf', () => {
  it('keeps startIndex at least 1 and count within 0..max, and takes the integers given within them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e9, max: 1e9 }),
        fc.integer({ min: -1e9, max: 1e9 }),
        (start, count) => {
          const page = pageOf(String(start), String(count));
          expect(page.startIndex).toBe(Math.max(1, start));
          expect(page.count).toBe(Math.min(SCIM_PAGE_MAX, Math.max(0, count)));
        },
      ),
    );
    expect(pageOf(undefined, undefined)).toEqual({ startIndex: 1, count: SCIM_PAGE_MAX });
  });

  it('refuses what is not an integer with 400 invalidValue', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^\s*[+-]?\d{1,15}\s*$/.test(s) && s !== ''),
        (text) => {
          expect(refusal(() => pageOf(text, undefined))).toEqual({ status: 400, scimType: 'invalidValue' });
          expect(refusal(() => pageOf(undefined, text))).toEqual({ status: 400, scimType: 'invalidValue' });
        },
      ),
    );
  });
});

describe('parseScimFilter', () => {
  const user = (userName: string, externalId?: string) =>
    caselessView({
      userName,
      ...(externalId && { externalId }),
      active: true,
      emails: [{ value: userName, type: 'work', primary: true }],
    });

  it('matches userName and emails.value without case, whatever case the filter and the address are in', () => {
    const email = fc
      .tuple(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9.]{0,10}$/), fc.stringMatching(/^[a-zA-Z]{1,8}$/))
      .map(([local, domain]) => `${local}@${domain}.example`);
    const flip = (s: string) => [...s].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
    fc.assert(
      fc.property(email, (address) => {
        const stored = user(address.toLowerCase());
        for (const text of [`userName eq "${flip(address)}"`, `emails[value eq "${address.toUpperCase()}"]`])
          expect(filter(parseScimFilter('user', text))(stored)).toBe(true);
        expect(filter(parseScimFilter('user', `userName eq "x${address}"`))(stored)).toBe(false);
      }),
    );
  });

  it('compares externalId exactly, and narrows SQL to the value of a top-level eq', () => {
    const f = parseScimFilter('user', 'externalId eq "AbC" and active eq true');
    expect(filter(f)(user('a@b.example', 'AbC'))).toBe(true);
    expect(filter(f)(user('a@b.example', 'abc'))).toBe(false);
    expect(sqlNarrowing(f)).toEqual({ externalIds: ['AbC'] });
    expect(sqlNarrowing(parseScimFilter('user', 'userName eq "A@B.example"'))).toEqual({
      emails: ['a@b.example'],
    });
    expect(sqlNarrowing(parseScimFilter('user', 'userName eq "a@b.example" or active eq false'))).toEqual({});
  });

  it('refuses attributes it does not filter on and filters it cannot read, with 400 invalidFilter', () => {
    for (const text of ['password eq "x"', 'name.givenName eq "x"', 'userName eq', 'userName xx "a"', '(('])
      expect(refusal(() => parseScimFilter('user', text))).toEqual({
        status: 400,
        scimType: 'invalidFilter',
      });
    expect(refusal(() => parseScimFilter('group', 'userName eq "a"'))).toEqual({
      status: 400,
      scimType: 'invalidFilter',
    });
    expect(
      refusal(() => parseScimFilter('user', 'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a"')),
    ).toBeUndefined();
  });
});

describe('namesVersion (If-Match / If-None-Match)', () => {
  const tag = fc
    .tuple(fc.nat(10_000), fc.boolean())
    .map(([v, weak]) => ({ v, text: `${weak ? 'W/' : ''}"${v}"` }));
  it('names a version exactly when one listed tag (weak or strong) carries it, or the header is "*"', () => {
    fc.assert(
      fc.property(
        fc.array(tag, { maxLength: 5 }),
        fc.nat(10_000),
        fc.constantFrom(',', ', ', ' ,  '),
        (tags, version, sep) => {
          const header = tags.map((t) => t.text).join(sep);
          expect(namesVersion(header, version)).toBe(tags.some((t) => t.v === version));
          expect(namesVersion('*', version)).toBe(true);
          expect(namesVersion(etagOf(version), version)).toBe(true);
        },
      ),
    );
  });
  it('a header with no entity tag in it (garbage, a bare number) names nothing', () => {
    fc.assert(
      fc.property(
        fc.string().filter((h) => !h.includes('"') && h.trim() !== '*'),
        fc.nat(),
        (header, version) => {
          expect(namesVersion(header, version)).toBe(false);
        },
      ),
    );
    expect(namesVersion('7', 7)).toBe(false);
  });
});
