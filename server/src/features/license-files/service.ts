import type { AuditActionOf } from '@lp/contract/audit/actions';
import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { LicenseFile, PreviewRequest, VerifyResult } from '@lp/contract/license-files/schemas';
import { formatDate } from '@lp/domain/dates';
import { isBorrowable } from '@lp/domain/entitlements';
import {
  featureDisplayLine,
  generateLicenseFiles,
  type LicenseFeature,
  type LicenseFiles,
  type LicenseSigner,
  licenseFileName,
  mergeLicenseFiles,
  sharedLicenseFiles,
} from '@lp/domain/license-file';
import { parseLicenseText } from '@lp/domain/license-file-parse';
import { createSigningKey, licenseVerifier, signer } from '@lp/domain/license-signature';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/escape-html.ts';
import { sendUserEmail } from '../../platform/mail/user-mail.ts';
import type { Principal } from '../../platform/principal.ts';
import { sealedAs, sealingKey } from '../../platform/sealing-key.ts';
import { seal, unseal } from '../../platform/secret-box.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { liveLinesOf, type PlannedLine, plannedLinesOf } from '../activations/service.ts';
import { type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import {
  editableAccounts,
  findAccountHost,
  type HostRow,
  parseHost,
  serversOfHost,
  unknownHost,
  visibleHost,
} from '../license-servers/service.ts';
import { findCurrentKey, insertKey, listKeys, lockKeys, retireKeys } from './repository.ts';

// ---- signing keys (decision 028) ----

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

// ---- generation ----

/** A line the license file lists: an entitlement and the seats of it on the host. */
type FileLine = Pick<PlannedLine, 'customerNumber' | 'count' | 'entitlement'>;

/** The generator's input for one line; BORROW only when the host allows it and the model is borrowable. */
const featureOf = (
  ctx: AppContext,
  { entitlement: e, count }: FileLine,
  borrow: boolean,
): LicenseFeature => ({
  product: e.productName,
  activationId: e.activationId,
  featureName: e.featureName ?? e.partNumber.toLowerCase(),
  daemon: e.daemon ?? ctx.config.LICENSE_MAIN_DAEMON,
  count,
  startDate: e.startDate,
  endDate: e.endDate,
  versionDate: e.versionDate,
  borrowable: borrow && isBorrowable(e.licenseModel),
});

/** One customer's files for the host; null when nothing of theirs is activated on it (no daemon in use). */
function customerFiles(
  ctx: AppContext,
  host: HostRow,
  customerNumber: string,
  lines: FileLine[],
  borrow: boolean,
  issued: string,
  sign: LicenseSigner,
): LicenseFiles | null {
  const features = lines
    .filter((l) => l.customerNumber === customerNumber && l.count > 0)
    .map((l) => featureOf(ctx, l, borrow));
  if (features.length === 0) return null;
  try {
    const files = generateLicenseFiles(
      { servers: serversOfHost(host), customerNumber, issued, features },
      sign,
    );
    ctx.metrics?.licenseFiles.inc();
    return files;
  } catch (e) {
    // Stored data the FlexLM format cannot carry (a product without a feature name, a customer number with
    // spaces): the operator needs the cause, the user the spec's text, never a 500.
    ctx.log.error({ err: e, customerNumber, hostId: host.hostIdentity }, 'license file cannot be generated');
    throw new AppError('UNPROCESSABLE', messages.errorLicenseFile);
  }
}

/** Per daemon, the lines of every customer in one `{daemon}…_shared.lic` file. */
const sharedFiles = (host: HostRow, files: LicenseFiles[]): LicenseFile[] =>
  sharedLicenseFiles(files, host.hostIds).map(({ fileName, text }) => ({ fileName, text }));

interface HostFiles {
  host: HostRow;
  /** Customers the user may see, in host order, with their files (null: nothing activated). */
  results: { customerNumber: string; files: LicenseFiles | null }[];
}

async function filesOfHost(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; hostId: string; hostIdType: string },
  customers: (visible: string[]) => string[],
  borrowed?: boolean,
): Promise<HostFiles> {
  const { host, members } = await visibleHost(ctx, principal, request);
  const wanted = customers(members.map((m) => m.customerNumber));
  const lines = await liveLinesOf(ctx.db, host.id, wanted);
  const sign = await currentSigner(ctx);
  const issued = formatDate(new Date());
  // The host's saved Borrowable setting decides; a caller may only leave BORROW out, never add it.
  const borrow = host.borrowable && borrowed !== false;
  return {
    host,
    results: wanted.map((cn) => ({
      customerNumber: cn,
      files: customerFiles(ctx, host, cn, lines, borrow, issued, sign),
    })),
  };
}

const noDaemons = () => new AppError('CONFLICT', messages.noDaemonsWithActivations);

/** A file handed out, as its audit entry names it: the account's file of the host. */
const fileChange = (
  action: AuditActionOf<'license-files.'>,
  customerNumber: string,
  fileName: string,
  after: Record<string, unknown>,
): AuditChange => ({
  customerNumber,
  action,
  object: { type: 'license-file', id: fileName },
  after,
});

/**
 * Records files handed out. Generating and downloading change no row, so the entries are their transaction's only
 * writes (one batch: several accounts' chains are locked in recordAudit's one order).
 */
const recordFiles = (ctx: AppContext, principal: Principal, changes: AuditChange[]) =>
  ctx.db.transaction((tx) => recordAudit(tx, auditActor(principal), changes));

/** Spec 002 §7 /api/fulfillments/license: one account's text per daemon, plus the shared files of a shared host. */
export async function accountLicense(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; serverId: string; serverIdType: string; ansysborrowed?: boolean },
) {
  const { host, results } = await filesOfHost(
    ctx,
    principal,
    { customerNumber: request.customerNumber, hostId: request.serverId, hostIdType: request.serverIdType },
    (visible) => visible,
    request.ansysborrowed,
  );
  const own = results.find((r) => r.customerNumber === request.customerNumber)?.files;
  if (!own) throw noDaemons();
  const withLines = results.flatMap((r) => (r.files ? [r.files] : []));
  await recordFiles(ctx, principal, [
    fileChange('license-files.generated', request.customerNumber, own.fileName, {
      host: host.hostIdentity,
      daemons: Object.keys(own.licenseText),
    }),
  ]);
  return {
    licenseText: own.licenseText,
    licenseFileName: own.fileName,
    text: own.text,
    shared: withLines.length > 1 ? sharedFiles(host, withLines) : [],
  };
}

/**
 * The history page's license text for several customers of one host: every customer must be one the user may see
 * on that host (404 otherwise, as for an unknown host); a customer with nothing activated is reported, and the call
 * fails only when no customer has anything (spec 002 §4 "tolerated unless it is the last one").
 */
export async function customersLicenses(
  ctx: AppContext,
  principal: Principal,
  request: {
    hostId: string;
    hostIdType: string;
    borrowable?: boolean;
    customers: { customerNumber: string }[];
  },
) {
  const asked = [...new Set(request.customers.map((c) => c.customerNumber))];
  const { host, results } = await filesOfHost(
    ctx,
    principal,
    { customerNumber: asked[0], hostId: request.hostId, hostIdType: request.hostIdType },
    (visible) => {
      const missing = asked.find((cn) => !visible.includes(cn));
      if (missing !== undefined) throw new AppError('NOT_FOUND', unknownHost);
      return asked;
    },
    request.borrowable,
  );
  const withLines = results.flatMap((r) => (r.files ? [r.files] : []));
  if (withLines.length === 0) throw noDaemons();
  // One entry per customer whose file was generated, in that customer's log.
  await recordFiles(
    ctx,
    principal,
    results.flatMap((r) =>
      r.files
        ? [
            fileChange('license-files.generated', r.customerNumber, r.files.fileName, {
              host: host.hostIdentity,
              daemons: Object.keys(r.files.licenseText),
            }),
          ]
        : [],
    ),
  );
  return {
    data: results.map((r) =>
      r.files
        ? {
            customerNumber: r.customerNumber,
            status: 'SUCCESS' as const,
            licenseText: r.files.licenseText,
            licenseFileName: r.files.fileName,
          }
        : {
            customerNumber: r.customerNumber,
            status: 'FAILURE' as const,
            err: messages.noDaemonsWithActivations,
            licenseText: {},
            licenseFileName: licenseFileName(r.customerNumber, host.hostIds),
          },
    ),
    merged: {
      fileName: licenseFileName(asked[0], host.hostIds),
      text: mergeLicenseFiles(withLines),
    },
    shared: withLines.length > 1 ? sharedFiles(host, withLines) : [],
  };
}

/** The merged file of a host for every account on it the user may see (spec 002 §4 save flow step 6). */
async function mergedFile(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; serverId: string; serverIdType: string },
): Promise<LicenseFile & { host: HostRow }> {
  const { host, results } = await filesOfHost(
    ctx,
    principal,
    { customerNumber: request.customerNumber, hostId: request.serverId, hostIdType: request.serverIdType },
    (visible) => visible,
  );
  const withLines = results.flatMap((r) => (r.files ? [r.files] : []));
  if (withLines.length === 0) throw noDaemons();
  return {
    host,
    fileName: licenseFileName(request.customerNumber, host.hostIds),
    text: mergeLicenseFiles(withLines),
  };
}

/** POST /api/fulfillments/download. */
export async function downloadLicense(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; serverId: string; serverIdType: string },
): Promise<LicenseFile> {
  const { host, fileName, text } = await mergedFile(ctx, principal, request);
  await recordFiles(ctx, principal, [
    fileChange('license-files.downloaded', request.customerNumber, fileName, { host: host.hostIdentity }),
  ]);
  return { fileName, text };
}

/**
 * POST /api/fulfillments/email (decision 030): the server's own signed file goes to the account's support list, a
 * copy to the user, through the outbox; it is recorded in the account's e-mails, and audited in the same
 * transaction. View-only users may not send.
 */
export async function emailLicense(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; serverId: string; serverIdType?: string },
) {
  const { customer } = await authorizeAccount(ctx, principal, request.customerNumber, 'activate');
  const support = customer.info.supportEmail.trim();
  if (!support) throw new AppError('CONFLICT', messages.noSupportEmail);
  const { host, fileName, text } = await mergedFile(ctx, principal, {
    customerNumber: request.customerNumber,
    serverId: request.serverId,
    serverIdType: request.serverIdType ?? 'ETHERNET',
  });
  // An e-mail is read outside the portal: the keys' address is absolute (PUBLIC_URL), a relative path leads nowhere.
  const keysUrl = `${ctx.config.publicUrl}${licenseFilesApi.keys.path}`;
  const html =
    `<p>The license file of license server ${escapeHtml(host.name)} (${escapeHtml(host.hostIdentity)}) ` +
    `for ${escapeHtml(customer.customerName)} (${escapeHtml(customer.customerNumber)}) is attached, sent by ` +
    `${escapeHtml(principal.email)}.</p><p>Every feature line is signed; anyone can check it with the public keys ` +
    `at <a href="${escapeHtml(keysUrl)}">${escapeHtml(keysUrl)}</a>.</p>`;
  await ctx.db.transaction(async (tx) => {
    await sendUserEmail(
      ctx,
      principal.userId,
      {
        customerNumber: customer.customerNumber,
        to: support,
        cc: principal.email,
        subject: `License file ${fileName}`,
        html,
        attachments: [{ filename: fileName, contentType: 'text/plain', content: text }],
      },
      tx,
    );
    await recordAudit(tx, auditActor(principal), [
      fileChange('license-files.emailed', customer.customerNumber, fileName, {
        host: host.hostIdentity,
        to: support,
        cc: principal.email,
      }),
    ]);
  });
}

// ---- preview and verify (decision 032) ----

/** What `after` has beyond `before` and the reverse, as multisets (two entitlements may write the same line). */
function lineChanges(before: string[], after: string[]) {
  const tally = (lines: string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const beyond = (lines: string[], other: Map<string, number>) =>
    lines.filter((line) => {
      const n = other.get(line) ?? 0;
      if (n > 0) other.set(line, n - 1);
      return n === 0;
    });
  return { added: beyond(after, tally(before)), removed: beyond(before, tally(after)) };
}

/**
 * POST /api/fulfillments/license/preview: per customer, the INCREMENT lines of their file for the host that these
 * returns and creates would add and remove, rendered by the generator's own token builder without ISSUED and
 * SIGN. Read-only, so view-only users may ask; every customer must pass the account gate. A host a customer does
 * not use yet (new, or not theirs) has no lines before.
 */
export async function previewLicenseChanges(ctx: AppContext, principal: Principal, request: PreviewRequest) {
  await authorizeAccount(ctx, principal, request.customerNumber, 'activations');
  const customers = new Map<
    string,
    { returns: PreviewChange['returns']; creates: PreviewChange['creates'] }
  >();
  for (const c of request.customers) {
    const merged = customers.get(c.customerNumber) ?? { returns: [], creates: [] };
    merged.returns.push(...c.returns);
    merged.creates.push(...c.creates);
    customers.set(c.customerNumber, merged);
  }
  for (const cn of customers.keys()) await authorizeAccount(ctx, principal, cn, 'activations');
  const serverIdType = request.serverIdType ?? 'ETHERNET';
  // Bad ids answer the spec's host-id text before anything is read.
  if (request.serverId) parseHost(request.serverId, serverIdType);
  const data = [];
  for (const [customerNumber, change] of customers) {
    const found = request.serverId
      ? await findAccountHost(ctx.db, customerNumber, request.serverId, serverIdType)
      : undefined;
    const host = found?.host;
    const { before, after } = await plannedLinesOf(ctx.db, host?.id ?? null, customerNumber, change);
    const borrowAfter = await savedBorrowable(ctx, principal, found, request.ansysborrowable);
    const display = (lines: PlannedLine[], borrow: boolean) => {
      try {
        return lines.map((l) => featureDisplayLine(featureOf(ctx, l, borrow), customerNumber));
      } catch (e) {
        ctx.log.error({ err: e, customerNumber }, 'license line cannot be rendered');
        throw new AppError('UNPROCESSABLE', messages.errorLicenseFile);
      }
    };
    data.push({
      customerNumber,
      ...lineChanges(display(before, host?.borrowable ?? false), display(after, borrowAfter)),
    });
  }
  return data;
}

type PreviewChange = PreviewRequest['customers'][number];

/**
 * The host's Borrowable setting after the save, as the save will leave it: the asked one for a new host or one whose
 * every account the user may edit (a create batch or /api/fulfillments/servers/settings saves it), else the saved
 * one (a create batch leaves it, the settings call is refused). A new host asked for nothing has none.
 */
async function savedBorrowable(
  ctx: AppContext,
  principal: Principal,
  found: { host: HostRow; members: { customerNumber: string }[] } | undefined,
  asked: boolean | undefined,
): Promise<boolean> {
  if (!found) return asked ?? false;
  if (asked === undefined || asked === found.host.borrowable) return found.host.borrowable;
  const members = found.members.map((m) => m.customerNumber);
  const editable = await editableAccounts(ctx, principal, members);
  return editable.length === members.length ? asked : found.host.borrowable;
}

const CUSTOMER_IN_VENDOR_STRING = /(?:^|\s)customer:([\w.-]+)/;

/**
 * POST /api/license-files/verify: every feature line of an uploaded file against the published keys, with the
 * customer its VENDOR_STRING names. Reads only the file: no account is looked up, so nothing else is revealed.
 * A file that does not read, or has no feature line, is refused naming the problem.
 */
export async function verifyLicenseFile(ctx: AppContext, text: string): Promise<VerifyResult> {
  const parsed = parseLicenseText(text);
  const problem = parsed.problems[0];
  if (problem) throw badRequest(messages.licenseFileUnreadable(problem.line, problem.message));
  if (parsed.features.length === 0) throw badRequest(messages.licenseFileNoFeatures);
  const keys = Object.fromEntries((await listKeys(ctx.db)).map((k) => [k.keyId, k.publicKeyPem]));
  const verdicts = licenseVerifier(keys)(text);
  const customerOf = parsed.features.map((feature) => {
    const vendorString = feature.tokens.find((t) => t.key?.toUpperCase() === 'VENDOR_STRING');
    return (vendorString && CUSTOMER_IN_VENDOR_STRING.exec(vendorString.value)?.[1]) ?? null;
  });
  return {
    customers: [...new Set(customerOf.flatMap((cn) => (cn === null ? [] : [cn])))],
    hostIds: parsed.servers.map((server) => server.hostId),
    lines: verdicts.map((v, i) => ({ ...v, customerNumber: customerOf[i] })),
  };
}
