import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { canonicalFeatureLine, type LicenseSigner, readSignValue } from './license-file.ts';
import { parseLicenseText } from './license-file-parse.ts';

/**
 * Ed25519 signatures of license feature lines (decision 028). Server and CLI only: it loads node:crypto, so
 * the web app never imports it.
 */

export interface LicenseSigningKey {
  keyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/** `foreign`: a SIGN= value that is not in this portal's form (another vendor's or a made-up signature). */
export type LicenseVerdict = 'valid' | 'invalid' | 'unsigned' | 'unknown-key' | 'foreign';

export interface LicenseLineVerdict {
  /** 1-based line of the feature line's first physical line */
  line: number;
  /** the line's keyword: FEATURE, INCREMENT, PACKAGE or UPGRADE */
  keyword: string;
  feature: string;
  verdict: LicenseVerdict;
  /** the key id the SIGN value names, when it is in our form */
  keyId: string | null;
  /** why, in a few words, for people reading the verdict */
  reason: string;
}

const idOf = (publicKey: KeyObject) =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 8);

/** The key id: the first 8 hex digits of the SHA-256 of the public key (SPKI DER). */
export function licenseKeyId(publicKeyPem: string): string {
  return idOf(createPublicKey(publicKeyPem));
}

export function createSigningKey(): LicenseSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    keyId: idOf(publicKey),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The generator's signing callback; the key is read once, and must be the one keyId names. */
export function signer(keyId: string, privateKeyPem: string): LicenseSigner {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('License keys are Ed25519 keys');
  if (idOf(createPublicKey(privateKey)) !== keyId) throw new Error(`Key id ${keyId} is not this key's id`);
  return (canonical) => ({
    keyId,
    signature: sign(null, Buffer.from(canonical), privateKey).toString('hex'),
  });
}

/**
 * Checks every feature line of a file against the published keys (retired ones included, so old files still
 * verify). Keys are read once per verifier; a key id that does not match its key is refused.
 */
export function licenseVerifier(publicKeys: Record<string, string>): (text: string) => LicenseLineVerdict[] {
  const keys = new Map<string, KeyObject>();
  for (const [keyId, pem] of Object.entries(publicKeys)) {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`Key ${keyId} is not an Ed25519 key`);
    if (idOf(key) !== keyId.toLowerCase()) throw new Error(`Key id ${keyId} does not match its public key`);
    keys.set(keyId.toLowerCase(), key);
  }
  return (text) => {
    const parsed = parseLicenseText(text);
    const hostIds = parsed.servers.map((server) => server.hostId);
    return parsed.features.map((feature) => {
      const verdictOf = (verdict: LicenseVerdict, reason: string, keyId: string | null = null) => ({
        line: feature.line,
        keyword: feature.keyword,
        feature: feature.name,
        verdict,
        keyId,
        reason,
      });
      const signToken = feature.tokens.find((token) => token.key?.toUpperCase() === 'SIGN');
      if (!signToken) return verdictOf('unsigned', 'the line has no SIGN=');
      const signed = readSignValue(signToken.value);
      if (!signed) return verdictOf('foreign', 'SIGN= is not a signature of this portal');
      const key = keys.get(signed.keyId);
      if (!key) return verdictOf('unknown-key', `no published key has id ${signed.keyId}`, signed.keyId);
      const canonical = Buffer.from(canonicalFeatureLine(hostIds, feature.tokens));
      return verify(null, canonical, key, Buffer.from(signed.signature, 'hex'))
        ? verdictOf('valid', 'the signature matches the line and the SERVER host ids', signed.keyId)
        : verdictOf('invalid', 'the line or the SERVER host ids differ from what was signed', signed.keyId);
    });
  };
}

/** One-off check of a file; build a licenseVerifier to check many with the same keys. */
export function verifyLicenseText(text: string, publicKeys: Record<string, string>): LicenseLineVerdict[] {
  return licenseVerifier(publicKeys)(text);
}
