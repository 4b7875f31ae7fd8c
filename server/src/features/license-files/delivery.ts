import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { LicenseFile } from '@lp/contract/license-files/schemas';
import { licenseFileName, mergeLicenseFiles } from '@lp/domain/license-file';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/escape-html.ts';
import { sendUserEmail } from '../../platform/mail/user-mail.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { auditActor, recordAudit } from '../audit/service.ts';
import type { HostRow } from '../license-servers/service.ts';
import { fileChange, filesOfHost, noDaemons, recordFiles } from './generate.ts';

/** Handing out a host's merged license file: download and e-mail to the account's support address. */

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
