import type { LicenseSigner } from '@lp/domain/license-file';
import { createSigningKey, signer } from '@lp/domain/license-signature';
import type { AppContext } from '../../platform/context.ts';
import { sealedAs, sealingKey } from '../../platform/sealing-key.ts';
import { seal, unseal } from '../../platform/secret-box.ts';
import { findCurrentKey, insertKey, listKeys, lockKeys, retireKeys } from './repository.ts';

/** License-file signing keys (decision 028): the current signer, rotation and the published public keys. */

/**
 * Opened signers by sealing key and key id: a key is unsealed and parsed once per process, never per request
 * (and never reused by a configuration whose sealing key could not have opened it).
 */
const signers = new WeakMap<Buffer, Map<string, LicenseSigner>>();

/** What key handling needs: the database and the sealing key's configuration (the CLI has no app). */
type KeyContext = Pick<AppContext, 'db' | 'config'>;

/** Seals a new signing key with the proven sealing key (decision 043) and stores it. */
async function createKey(tx: KeyContext['db'], sealing: Buffer) {
  const key = createSigningKey();
  await insertKey(tx, {
    keyId: key.keyId,
    privateKeyCipher: seal(sealing, key.privateKeyPem, sealedAs.signingKey(key.keyId)),
    publicKeyPem: key.publicKeyPem,
  });
  return key.keyId;
}

/**
 * The signer of the current key; the first generation on an empty database creates the key. A sealing key that
 * does not open the database's secrets is a SealingKeyError (503), never a new key sealed with it.
 */
export async function currentSigner(ctx: KeyContext): Promise<LicenseSigner> {
  const sealing = await sealingKey(ctx);
  let row = await findCurrentKey(ctx.db);
  if (!row) {
    await ctx.db.transaction(async (tx) => {
      await lockKeys(tx);
      // Another node may have created it while this one waited for the lock.
      if (!(await findCurrentKey(tx))) await createKey(tx, sealing);
    });
    row = await findCurrentKey(ctx.db);
  }
  if (!row) throw new Error('no license signing key after creating one');
  const opened = signers.get(sealing) ?? new Map<string, LicenseSigner>();
  signers.set(sealing, opened);
  let sign = opened.get(row.keyId);
  if (!sign) {
    const pem = unseal(
      sealing,
      row.privateKeyCipher,
      sealedAs.signingKey(row.keyId),
      `license signing key ${row.keyId}`,
    );
    sign = signer(row.keyId, pem);
    opened.set(row.keyId, sign);
  }
  return sign;
}

/**
 * Rotation (CLI `license rotate-key`): the current keys are retired and a new one signs from now on. Retired
 * public keys stay published, so files signed earlier keep verifying. The sealing key is proven first: with a
 * wrong or missing one this changes nothing and throws SealingKeyError.
 */
export async function rotateSigningKey(ctx: KeyContext): Promise<string> {
  const sealing = await sealingKey(ctx);
  return ctx.db.transaction(async (tx) => {
    await lockKeys(tx);
    await retireKeys(tx);
    return createKey(tx, sealing);
  });
}

/** GET /api/license-keys: every public key, newest first. */
export async function publishedKeys(ctx: KeyContext) {
  return (await listKeys(ctx.db)).map((k) => ({
    keyId: k.keyId,
    publicKeyPem: k.publicKeyPem,
    createdAt: new Date(k.createdAt).toISOString(),
    retiredAt: k.retiredAt ? new Date(k.retiredAt).toISOString() : null,
  }));
}
