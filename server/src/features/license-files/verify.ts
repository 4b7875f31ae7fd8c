import { messages } from '@lp/contract/common/errors';
import type { VerifyResult } from '@lp/contract/license-files/schemas';
import { parseLicenseText } from '@lp/domain/license-file-parse';
import { licenseVerifier } from '@lp/domain/license-signature';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { listKeys } from './repository.ts';

/** Checking an uploaded license file's signatures and owner (decision 032). */

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
