import type { AuditActionOf } from '@lp/contract/audit/actions';
import { messages } from '@lp/contract/common/errors';
import type { LicenseFile } from '@lp/contract/license-files/schemas';
import { formatDate } from '@lp/domain/dates';
import { isBorrowable } from '@lp/domain/entitlements';
import {
  generateLicenseFiles,
  type LicenseFeature,
  type LicenseFiles,
  type LicenseSigner,
  licenseFileName,
  mergeLicenseFiles,
  sharedLicenseFiles,
} from '@lp/domain/license-file';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { liveLinesOf, type PlannedLine } from '../activations/service.ts';
import { type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import { type HostRow, serversOfHost, unknownHost, visibleHost } from '../license-servers/service.ts';
import { currentSigner } from './signing-keys.ts';

/** Generating license files for a host's accounts (spec 002 §7 /api/fulfillments/license and /licenses). */

/** A line the license file lists: an entitlement and the seats of it on the host. */
type FileLine = Pick<PlannedLine, 'customerNumber' | 'count' | 'entitlement'>;

/** The generator's input for one line; BORROW only when the host allows it and the model is borrowable. */
export const featureOf = (
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

export async function filesOfHost(
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

export const noDaemons = () => new AppError('CONFLICT', messages.noDaemonsWithActivations);

/** A file handed out, as its audit entry names it: the account's file of the host. */
export const fileChange = (
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
export const recordFiles = (ctx: AppContext, principal: Principal, changes: AuditChange[]) =>
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
