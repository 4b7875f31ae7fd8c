import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path.ts';

const base = 'https://portal.example';

/** Same origin and exactly one leading '/' once a browser resolves it against the portal. */
function staysHome(result: string): boolean {
  const url = new URL(result, base);
  return url.origin === base && /^\/(?![/\\]|%2f|%5c)/i.test(result);
}

describe('safeReturnPath', () => {
  it('keeps same-origin paths with query and hash', () => {
    expect(safeReturnPath('/elastic?customer=1#top', base)).toBe('/elastic?customer=1#top');
    expect(safeReturnPath('/', base)).toBe('/');
    expect(safeReturnPath('/a/./b/../c', base)).toBe('/a/c');
    expect(safeReturnPath(`${'/'}emails/12`, `${base}/`)).toBe('/emails/12');
  });

  it('turns every known bypass shape into /', () => {
    const corpus = [
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '/\\\\evil.example',
      '\\\\evil.example',
      '/./%2e%2e//evil.example',
      '/%2e/%2fevil',
      '/%2e%2e//evil.example',
      '/.//evil.example',
      '/././/evil.example',
      '/../..//evil.example',
      '/a/..//evil.example',
      '/%2E%2E//evil.example',
      '/.%2e//evil.example',
      '/%2e.//evil.example',
      '/./\\evil.example',
      '/.\\/evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      'https://evil.example/',
      'http://portal.example.evil.example/',
      'https:evil.example',
      '//portal.example@evil.example',
      'javascript:alert(1)',
      'elastic',
      '',
      `/${'a'.repeat(2000)}`,
      42,
      undefined,
      null,
    ];
    for (const bad of corpus) {
      expect([bad, safeReturnPath(bad, base)]).toEqual([bad, '/']);
    }
  });

  it('for any input answers / or a path that stays on the portal and is stable', () => {
    const segment = fc.constantFrom(
      '/',
      '\\',
      '.',
      '..',
      '%2e',
      '%2E',
      '%2f',
      '%5c',
      '?',
      '#',
      '@',
      ':',
      'evil.example',
      '\t',
      ' ',
    );
    const shaped = fc.array(segment, { maxLength: 12 }).map((parts) => `/${parts.join('')}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath(), shaped), (input) => {
        const result = safeReturnPath(input, base);
        expect(staysHome(result)).toBe(true);
        // Already in resolved form: checking it again changes nothing.
        expect(safeReturnPath(result, base)).toBe(result);
      }),
      { numRuns: 2000 },
    );
  });
});
