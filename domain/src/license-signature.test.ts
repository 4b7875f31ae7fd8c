import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { licenseInput } from './license-corpus/arbitraries.ts';
import { generateLicenseFiles, type LicenseFileInput, mergeLicenseFiles } from './license-file.ts';
import { type FeatureLine, type LicenseToken, parseLicenseText, tokenText } from './license-file-parse.ts';
import {
  createSigningKey,
  licenseKeyId,
  licenseVerifier,
  signer,
  verifyLicenseText,
} from './license-signature.ts';

const key = createSigningKey();
const oldKey = createSigningKey();
const sign = signer(key.keyId, key.privateKeyPem);
const publicKeys = { [key.keyId]: key.publicKeyPem, [oldKey.keyId]: oldKey.publicKeyPem };
const verify = licenseVerifier(publicKeys);
const verdicts = (text: string) => verify(text).map((v) => v.verdict);

const example: LicenseFileInput = {
  servers: [
    { name: 'lic1', type: 'ETHERNET', id: '11223344aabb', port: 27000 },
    { name: 'lic2', type: 'ETHERNET', id: '11223355aacc', port: 27000 },
    { name: 'lic3', type: 'ETHERNET', id: 'bbaadd112233', port: 27000 },
  ],
  customerNumber: '00123456',
  issued: '2026-01-08',
  features: [
    {
      product: 'Solver',
      activationId: 'A-1',
      featureName: 'solver',
      daemon: 'simlmd',
      count: 5,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      versionDate: null,
      borrowable: true,
    },
    {
      product: 'Mesher',
      activationId: 'A-2',
      featureName: 'mesher',
      daemon: 'simlmd',
      count: 2,
      startDate: '2026-01-01',
      endDate: null,
      versionDate: '2027-06-30',
      borrowable: false,
    },
  ],
};
const exampleText = generateLicenseFiles(example, sign).text;

/** Writes tokens back as one physical line, quoting values that hold spaces. */
const render = (tokens: readonly LicenseToken[]) =>
  tokens
    .map((token) => {
      const value = /[\s#]/.test(token.value) || token.value === '' ? `"${token.value}"` : token.value;
      return token.key === null ? value : `${token.key}=${value}`;
    })
    .join(' ');

/** The text with one feature line (all its physical lines) replaced by one rendering of the tokens. */
function replaceLine(text: string, line: FeatureLine, tokens: readonly LicenseToken[]): string {
  const physical = text.split('\n');
  physical.splice(line.line - 1, line.text.split('\n').length, render(tokens));
  return physical.join('\n');
}

describe('signing keys', () => {
  it('name a key by the first 8 hex digits of the SHA-256 of its public key', () => {
    expect(key.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(licenseKeyId(key.publicKeyPem)).toBe(key.keyId);
    expect(key.keyId).not.toBe(oldKey.keyId);
  });

  it('refuse a key id that is not the key, and keys that are not Ed25519', () => {
    expect(() => signer(oldKey.keyId, key.privateKeyPem)).toThrow(/not this key's id/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const rsaPem = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => signer('00000000', rsaPem)).toThrow(/Ed25519/);
    const rsaPublic = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => licenseVerifier({ [licenseKeyId(rsaPublic)]: rsaPublic })).toThrow(/not an Ed25519 key/);
    expect(() => licenseVerifier({ [oldKey.keyId]: key.publicKeyPem })).toThrow(/does not match/);
  });
});

describe('verifyLicenseText', () => {
  it('finds every line of a generated file valid, with the key id the file names', () => {
    expect(verifyLicenseText(exampleText, { [key.keyId]: key.publicKeyPem })).toEqual([
      {
        line: 7,
        keyword: 'INCREMENT',
        feature: 'solver',
        verdict: 'valid',
        keyId: key.keyId,
        reason: expect.any(String),
      },
      {
        line: 13,
        keyword: 'INCREMENT',
        feature: 'mesher',
        verdict: 'valid',
        keyId: key.keyId,
        reason: expect.any(String),
      },
    ]);
  });

  it('still verifies files signed with a retired key, and names a key it does not have', () => {
    const old = generateLicenseFiles(example, signer(oldKey.keyId, oldKey.privateKeyPem)).text;
    expect(verdicts(old)).toEqual(['valid', 'valid']);
    const [unknown] = verifyLicenseText(old, { [key.keyId]: key.publicKeyPem });
    expect(unknown).toMatchObject({ verdict: 'unknown-key', keyId: oldKey.keyId });
  });

  it('tells unsigned lines and signatures that are not ours apart', () => {
    const text = [
      'SERVER lic1 11223344aabb 27000',
      'VENDOR simlmd',
      'INCREMENT solver simlmd 2026.1231 31-dec-2026 5',
      'INCREMENT mesher simlmd 2026.1231 31-dec-2026 5 SIGN="0011 2233 4455 6677"',
      '',
    ].join('\n');
    expect(verdicts(text)).toEqual(['unsigned', 'foreign']);
  });

  it('keeps lines valid through the edits an administrator may make', () => {
    const edits: [string, (text: string) => string][] = [
      ['host names', (t) => t.replace('SERVER lic1', 'SERVER lic1.example.com').replace('lic3', 'this_host')],
      ['ports', (t) => t.replace(/ 27000/g, ' 27001')],
      ['SERVER options', (t) => t.replace('27000\n', '27000 PRIMARY_IS_MASTER HEARTBEAT_INTERVAL=30\n')],
      [
        'the VENDOR line',
        (t) => t.replace('VENDOR simlmd', 'VENDOR simlmd /opt/simlmd OPTIONS=/opt/x.opt PORT=1056'),
      ],
      ['USE_SERVER', (t) => t.replace('USE_SERVER\n', '')],
      [
        'comments',
        (t) => t.replace('# Solver, A-1', '# edited by IT').replace('USE_SERVER\n', 'USE_SERVER\n# hi\n'),
      ],
      ['line ends', (t) => t.replace(/\n/g, '\r\n')],
      ['tabs and wrapping', (t) => t.replace(/ \\\n\t/g, ' ').replace(/BORROW /, 'BORROW \t')],
      ['the keyword case', (t) => t.replace('INCREMENT solver', 'increment solver')],
      [
        'lowercase keywords',
        (t) =>
          t.replace('BORROW', 'BORROW asset_info="rack 4" sort=100 user_info=x dist_info=y vendor_info=z'),
      ],
      ['quoting', (t) => t.replace('VENDOR_STRING=customer:00123456', 'VENDOR_STRING="customer:00123456"')],
    ];
    for (const [what, edit] of edits) {
      const edited = edit(exampleText);
      expect(edited, what).not.toBe(exampleText);
      expect(verdicts(edited), what).toEqual(['valid', 'valid']);
    }
  });

  it('breaks every line when a SERVER host id changes, is added or removed', () => {
    expect(verdicts(exampleText.replace('11223355aacc', '11223355aacd'))).toEqual(['invalid', 'invalid']);
    expect(verdicts(exampleText.replace('SERVER lic3 bbaadd112233 27000\n', ''))).toEqual([
      'invalid',
      'invalid',
    ]);
    expect(verdicts(`SERVER lic4 001122334455\n${exampleText}`)).toEqual(['invalid', 'invalid']);
  });

  it('breaks a line whose SIGN is moved to another line', () => {
    const [solver, mesher] = parseLicenseText(exampleText).features;
    const signOf = (line: FeatureLine) => line.tokens.find((t) => t.key === 'SIGN')!;
    const swapped = replaceLine(exampleText, solver, [
      ...solver.tokens.filter((t) => t.key !== 'SIGN'),
      signOf(mesher),
    ]);
    expect(verdicts(swapped)).toEqual(['invalid', 'valid']);
  });
});

describe('signature properties', () => {
  it('verify(generate(x)) holds for every input', () => {
    fc.assert(
      fc.property(licenseInput, (input) => {
        const files = generateLicenseFiles(input, sign);
        const count = input.features.length;
        expect(verdicts(files.text)).toEqual(Array(count).fill('valid'));
        for (const text of Object.values(files.licenseText)) {
          expect(verdicts(text).every((v) => v === 'valid')).toBe(true);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('a merged file of customers of one host verifies', () => {
    fc.assert(
      fc.property(licenseInput, fc.stringMatching(/^\d{8}$/), (input, other) => {
        const first = generateLicenseFiles(input, sign);
        const second = generateLicenseFiles({ ...input, customerNumber: other }, sign);
        const merged = mergeLicenseFiles([first, second]);
        expect(verdicts(merged)).toEqual(Array(2 * input.features.length).fill('valid'));
      }),
      { numRuns: 20 },
    );
  });

  /** Changes to a covered token: a different value, a dropped token, an added one, another keyword. */
  const tamper = fc.record({
    line: fc.nat(),
    token: fc.nat(),
    how: fc.constantFrom('change', 'drop', 'add', 'keyword'),
  });

  it('changing any covered field breaks exactly that line; writing the line again unchanged keeps it', () => {
    fc.assert(
      fc.property(licenseInput, tamper, (input, { line, token, how }) => {
        const text = generateLicenseFiles(input, sign).text;
        const features = parseLicenseText(text).features;
        const target = features[line % features.length];
        const index = features.indexOf(target);
        const expected = features.map((_, i) => (i === index ? 'invalid' : 'valid'));
        // Rewritten on one physical line with the same tokens: still valid.
        expect(verdicts(replaceLine(text, target, target.tokens))).toEqual(features.map(() => 'valid'));
        const covered = target.tokens.filter((t) => t.key !== 'SIGN');
        const signToken = target.tokens.find((t) => t.key === 'SIGN')!;
        const at = 1 + (token % (covered.length - 1));
        const changed = covered.map((t) => ({ ...t }));
        if (how === 'change') changed[at].value = changed[at].value === '1' ? '2' : `${changed[at].value}1`;
        if (how === 'drop') changed.splice(at, 1);
        if (how === 'add') changed.splice(at, 0, { key: null, value: 'SUPERSEDE' });
        if (how === 'keyword') changed[0].value = 'FEATURE';
        const tampered = replaceLine(text, target, [...changed, signToken]);
        expect(verdicts(tampered), `${how} ${tokenText(covered[at])}`).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
