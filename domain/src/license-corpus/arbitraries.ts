import fc from 'fast-check';
import { type HostIdType, hostIdTypes } from '../host-ids.ts';
import type { LicenseFeature, LicenseFileInput, LicenseServer, LicenseSigner } from '../license-file.ts';

/** Test inputs for the license-file modules' property tests (generation, parsing, signatures). */

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const canonicalId: Record<HostIdType, fc.Arbitrary<string>> = {
  ETHERNET: hex(12),
  DISK_SERIAL_NUM: hex(8),
  FLEXID: hex(8).map((h) => `9-${h}`),
};

const flipCase = (text: string, upper: boolean) => (upper ? text.toUpperCase() : text);

/**
 * The ways people type an id host-ids.ts accepts: any case, a `TYPE=` prefix, a MAC with `:` or `-` (bytes
 * unpadded on Unix), a volume serial with its dash, stray spaces.
 */
function typedForms(type: HostIdType, id: string): fc.Arbitrary<string> {
  const bytes = id.match(/.{2}/g) ?? [];
  const forms = [fc.constant(id), fc.constant(`${type}=${id}`), fc.constant(` ${id} `)];
  if (type === 'ETHERNET') {
    forms.push(
      fc.constant(bytes.map((byte) => byte.replace(/^0(?=.)/, '')).join(':')),
      fc.constant(bytes.join('-')),
      fc.constant(`MAC_ADDRESS=${id}`),
    );
  }
  if (type === 'DISK_SERIAL_NUM') forms.push(fc.constant(`${id.slice(0, 4)}-${id.slice(4)}`));
  return fc.tuple(fc.oneof(...forms), fc.boolean()).map(([form, upper]) => flipCase(form, upper));
}

export const hostName = fc.oneof(
  fc.constant(''),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,14}[a-z0-9]$/),
  fc.stringMatching(/^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/),
);

/** One server or a triad of one type with different ids, each id as a person might type it. */
export const licenseServers: fc.Arbitrary<LicenseServer[]> = fc
  .tuple(fc.constantFrom(...hostIdTypes), fc.constantFrom(1, 3))
  .chain(([type, size]) =>
    fc.uniqueArray(canonicalId[type], { minLength: size, maxLength: size }).chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.record({
            name: hostName,
            type: fc.constant(type),
            id: typedForms(type, id),
            port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
          }),
        ),
      ),
    ),
  );

export const isoDay = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

export const daemons = ['simlmd', 'meshlmd', 'simlmd_nodelocked'] as const;

const licenseFeature: fc.Arbitrary<LicenseFeature> = fc.record({
  product: fc.string({ maxLength: 30 }),
  activationId: fc.stringMatching(/^[A-Z0-9-]{4,20}$/),
  featureName: fc.stringMatching(/^[a-z][a-z0-9_]{0,19}$/),
  daemon: fc.constantFrom(...daemons),
  count: fc.integer({ min: 1, max: 10_000 }),
  startDate: isoDay,
  endDate: fc.option(isoDay, { nil: null }),
  versionDate: fc.option(isoDay, { nil: null }),
  borrowable: fc.boolean(),
});

export const licenseInput: fc.Arbitrary<LicenseFileInput> = fc.record({
  servers: licenseServers,
  customerNumber: fc.stringMatching(/^\d{8}$/),
  issued: isoDay,
  features: fc.array(licenseFeature, { minLength: 1, maxLength: 5 }),
});

/** A signer that needs no key: fixed key id, signature from a cheap hash of the canonical text. */
export const fakeSigner: LicenseSigner = (canonical) => {
  let h = 0;
  for (const c of canonical) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return { keyId: '0123abcd', signature: h.toString(16).padStart(8, '0').repeat(16) };
};
