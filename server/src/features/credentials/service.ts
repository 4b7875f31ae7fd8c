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
  elasticServerId: string,
) {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  await requireElasticServer(ctx.db, customerNumber, elasticServerId);
  return findSettings(ctx.db, customerNumber, elasticServerId);
}

/** POST /api/getpin: the stored PIN, or null while the server has none (decision 051). */
export async function getPin(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  elasticServerId: string,
): Promise<string | null> {
  const settings = await readServerSettings(ctx, principal, customerNumber, elasticServerId);
  if (!settings?.pinCipher) return null;
  return unseal(
    await sealingKey(ctx),
    settings.pinCipher,
    sealedAs.pin(customerNumber, elasticServerId),
    `PIN of ${elasticServerId}`,
  );
}

/**
 * Elastic license servers get their first PIN where they are created (the demo world), so no read has to write
 * one (decision 022). Servers that already exist keep theirs; sealed with the caller's proven key.
 */
export async function createFirstPins(
  tx: Db,
  key: Buffer,
  servers: readonly { customerNumber: string; elasticServerId: string }[],
): Promise<void> {
  await insertPinCiphers(
    tx,
    servers.map(({ customerNumber, elasticServerId }) => ({
      customerNumber,
      elasticServerId,
      pinCipher: seal(key, randomPin(), sealedAs.pin(customerNumber, elasticServerId)),
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
  elasticServerId: string,
): Promise<string> {
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  const key = await sealingKey(ctx);
  const stored = await ctx.db.transaction(async (tx) => {
    await requireElasticServer(tx, customerNumber, elasticServerId);
    const pin = seal(key, randomPin(), sealedAs.pin(customerNumber, elasticServerId));
    if (await savePinCipherIfMissing(tx, customerNumber, elasticServerId, pin))
      await auditPin(tx, auditActor(principal), customerNumber, elasticServerId, 'credentials.pin.generated');
    return findSettings(tx, customerNumber, elasticServerId);
  });
  return unseal(
    key,
    stored!.pinCipher!,
    sealedAs.pin(customerNumber, elasticServerId),
    `PIN of ${elasticServerId}`,
  );
}

/** The PIN's value is never recorded, only that it was set. */
const auditPin = (
  tx: Db,
  actor: AuditActor,
  customerNumber: string,
  elasticServerId: string,
  action: AuditActionOf<'credentials.pin.'>,
) =>
  recordAudit(tx, actor, [
    {
      customerNumber,
      action,
      object: { type: 'license-server', id: elasticServerId },
      after: { pin: REDACTED },
    },
  ]);

/**
 * Writes a server's settings for a caller who may edit the account: refuses the input's problem (if any) with
 * 400, a server that is not the account's with 404, then writes in one transaction.
 */
async function editServerSettings(
  ctx: AppContext,
  principal: Principal,
  { customerNumber, elasticServerId }: { customerNumber: string; elasticServerId: string },
  problem: string | null,
  write: (tx: Db) => Promise<unknown>,
): Promise<void> {
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  if (problem) throw badRequest(problem);
  await ctx.db.transaction(async (tx) => {
    await requireElasticServer(tx, customerNumber, elasticServerId);
    await write(tx);
  });
}

/** POST /api/changepin */
export async function changePin(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; elasticServerId: string; pin: string },
): Promise<void> {
  const { customerNumber, elasticServerId, pin } = request;
  await editServerSettings(
    ctx,
    principal,
    request,
    isValidPin(pin) ? null : messages.invalidPin,
    async (tx) => {
      // Proven in the transaction, after the caller's rights: a wrong key answers 503 and seals nothing.
      const key = await sealingKey({ db: tx, config: ctx.config });
      await savePinCipher(
        tx,
        customerNumber,
        elasticServerId,
        seal(key, pin, sealedAs.pin(customerNumber, elasticServerId)),
      );
      await auditPin(tx, auditActor(principal), customerNumber, elasticServerId, 'credentials.pin.changed');
    },
  );
}

/** POST /api/getUsers: the allowed usernames as saved; empty means everyone with the PIN. */
export async function getUsers(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  elasticServerId: string,
): Promise<string[]> {
  return (await readServerSettings(ctx, principal, customerNumber, elasticServerId))?.users ?? [];
}

/** POST /api/saveUsers: replaces the list, kept as typed (the rules compare names ignoring case). */
export async function saveUsers(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; elasticServerId: string; users: string[] },
): Promise<void> {
  const { customerNumber, elasticServerId, users } = request;
  await editServerSettings(
    ctx,
    principal,
    request,
    isValidUsernameList(users) ? null : messages.invalidUsernames,
    async (tx) => {
      const before = (await findSettings(tx, customerNumber, elasticServerId))?.users ?? [];
      await replaceUsers(tx, customerNumber, elasticServerId, users);
      await recordAudit(tx, auditActor(principal), [
        {
          customerNumber,
          action: 'credentials.users.changed',
          object: { type: 'license-server', id: elasticServerId },
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
  elasticServerId: string,
): Promise<{ pin: string | null; users: string[] }> {
  const settings = await findSettings(ctx.db, customerNumber, elasticServerId);
  return {
    pin: settings?.pinCipher
      ? unseal(
          await sealingKey(ctx),
          settings.pinCipher,
          sealedAs.pin(customerNumber, elasticServerId),
          `PIN of ${elasticServerId}`,
        )
      : null,
    users: settings?.users ?? [],
  };
}
