import { randomInt } from 'node:crypto';
import type { AuditActionOf } from '@lp/contract/audit/actions';
import { messages } from '@lp/contract/common/errors';
import type { ElasticDevice } from '@lp/contract/credentials/schemas';
import { isValidPin, isValidUsernameList, PIN_LENGTH } from '@lp/domain/credentials';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { sealedAs, sealingKey } from '../../platform/sealing-key.ts';
import { seal, unseal } from '../../platform/secret-box.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditActor, auditActor, REDACTED, recordAudit } from '../audit/service.ts';
import { requireElasticServer } from '../ip-rules/service.ts';
import { elasticServersOf } from '../license-servers/service.ts';
import {
  findSettings,
  insertPinCiphers,
  saveUsers as replaceUsers,
  savePinCipher,
  savePinCipherIfMissing,
} from './repository.ts';

export const noElasticServer = 'This account has no elastic license server.';

/** A uniformly random PIN from the CSPRNG, leading zeros included. */
export function randomPin(): string {
  return String(randomInt(0, 10 ** PIN_LENGTH)).padStart(PIN_LENGTH, '0');
}

/** POST /api/devices/elastic: the account's elastic license server (the first active one). */
export async function elasticDevice(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<ElasticDevice> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const [server] = await elasticServersOf(ctx.db, customerNumber);
  if (!server) throw notFound(noElasticServer);
  return { deviceId: server.hostIdentity, alias: server.alias ?? '' };
}

/** A server's stored settings for a caller who may read the account; 404 when the server is not the account's. */
async function readServerSettings(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  clsId: string,
) {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  await requireElasticServer(ctx.db, customerNumber, clsId);
  return findSettings(ctx.db, customerNumber, clsId);
}

/** POST /api/getpin: the stored PIN, or null while the server has none (decision 051). */
export async function getPin(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  clsId: string,
): Promise<string | null> {
  const settings = await readServerSettings(ctx, principal, customerNumber, clsId);
  if (!settings?.pinCipher) return null;
  return unseal(
    await sealingKey(ctx),
    settings.pinCipher,
    sealedAs.pin(customerNumber, clsId),
    `PIN of ${clsId}`,
  );
}

/**
 * Elastic license servers get their first PIN where they are created (the demo world), so no read has to write
 * one (decision 022). Servers that already exist keep theirs; sealed with the caller's proven key.
 */
export async function createFirstPins(
  tx: Db,
  key: Buffer,
  servers: readonly { customerNumber: string; clsId: string }[],
): Promise<void> {
  await insertPinCiphers(
    tx,
    servers.map(({ customerNumber, clsId }) => ({
      customerNumber,
      clsId,
      pinCipher: seal(key, randomPin(), sealedAs.pin(customerNumber, clsId)),
    })),
  );
}

/**
 * POST /api/generatepin: a server without a PIN gets a random one (spec 001 §4). Only servers made before PINs
 * came with the server lack one; setting it is an edit of the account, so view-only users get 403 (spec 001 §6,
 * decision 022). It never replaces a stored PIN and answers the PIN in force, which is another caller's when two
 * pages race.
 */
export async function generatePin(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  clsId: string,
): Promise<string> {
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  const key = await sealingKey(ctx);
  const stored = await ctx.db.transaction(async (tx) => {
    await requireElasticServer(tx, customerNumber, clsId);
    const pin = seal(key, randomPin(), sealedAs.pin(customerNumber, clsId));
    if (await savePinCipherIfMissing(tx, customerNumber, clsId, pin))
      await auditPin(tx, auditActor(principal), customerNumber, clsId, 'credentials.pin.generated');
    return findSettings(tx, customerNumber, clsId);
  });
  return unseal(key, stored!.pinCipher!, sealedAs.pin(customerNumber, clsId), `PIN of ${clsId}`);
}

/** The PIN's value is never recorded, only that it was set. */
const auditPin = (
  tx: Db,
  actor: AuditActor,
  customerNumber: string,
  clsId: string,
  action: AuditActionOf<'credentials.pin.'>,
) =>
  recordAudit(tx, actor, [
    { customerNumber, action, object: { type: 'license-server', id: clsId }, after: { pin: REDACTED } },
  ]);

/**
 * Writes a server's settings for a caller who may edit the account: refuses the input's problem (if any) with
 * 400, a server that is not the account's with 404, then writes in one transaction.
 */
async function editServerSettings(
  ctx: AppContext,
  principal: Principal,
  { customerNumber, clsId }: { customerNumber: string; clsId: string },
  problem: string | null,
  write: (tx: Db) => Promise<unknown>,
): Promise<void> {
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  if (problem) throw badRequest(problem);
  await ctx.db.transaction(async (tx) => {
    await requireElasticServer(tx, customerNumber, clsId);
    await write(tx);
  });
}

/** POST /api/changepin */
export async function changePin(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; clsId: string; pin: string },
): Promise<void> {
  const { customerNumber, clsId, pin } = request;
  await editServerSettings(
    ctx,
    principal,
    request,
    isValidPin(pin) ? null : messages.invalidPin,
    async (tx) => {
      // Proven in the transaction, after the caller's rights: a wrong key answers 503 and seals nothing.
      const key = await sealingKey({ db: tx, config: ctx.config });
      await savePinCipher(tx, customerNumber, clsId, seal(key, pin, sealedAs.pin(customerNumber, clsId)));
      await auditPin(tx, auditActor(principal), customerNumber, clsId, 'credentials.pin.changed');
    },
  );
}

/** POST /api/getUsers: the allowed usernames as saved; empty means everyone with the PIN. */
export async function getUsers(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  clsId: string,
): Promise<string[]> {
  return (await readServerSettings(ctx, principal, customerNumber, clsId))?.users ?? [];
}

/** POST /api/saveUsers: replaces the list, kept as typed (the rules compare names ignoring case). */
export async function saveUsers(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; clsId: string; users: string[] },
): Promise<void> {
  const { customerNumber, clsId, users } = request;
  await editServerSettings(
    ctx,
    principal,
    request,
    isValidUsernameList(users) ? null : messages.invalidUsernames,
    async (tx) => {
      const before = (await findSettings(tx, customerNumber, clsId))?.users ?? [];
      await replaceUsers(tx, customerNumber, clsId, users);
      await recordAudit(tx, auditActor(principal), [
        {
          customerNumber,
          action: 'credentials.users.changed',
          object: { type: 'license-server', id: clsId },
          before: { users: before },
          after: { users },
        },
      ]);
    },
  );
}

/**
 * What an elastic license server enforces (for the /cls/v1 policy API): the decrypted PIN (null while none is
 * stored) and the allowed usernames as saved. The caller has already authenticated the server.
 */
export async function getElasticServerPolicy(
  ctx: AppContext,
  customerNumber: string,
  clsId: string,
): Promise<{ pin: string | null; users: string[] }> {
  const settings = await findSettings(ctx.db, customerNumber, clsId);
  return {
    pin: settings?.pinCipher
      ? unseal(
          await sealingKey(ctx),
          settings.pinCipher,
          sealedAs.pin(customerNumber, clsId),
          `PIN of ${clsId}`,
        )
      : null,
    users: settings?.users ?? [],
  };
}
