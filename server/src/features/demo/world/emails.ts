import { formatAmount } from '@lp/domain/amounts';
import { contactRoles } from '@lp/domain/policy';
import { daemons } from '../catalogue.ts';
import type { AccountScope } from './accounts.ts';
import { esc, type WorldContext } from './context.ts';
import type { LicenseServersOfAccount } from './license-servers.ts';
import type { EntitlementRow } from './types.ts';

const { viewer } = contactRoles;

/**
 * E-mails sent to one account over the last 13 months, of the kinds the account can receive (license files
 * only with an activated server, statements only with elastic, order confirmations only with an FSA); their
 * bodies quote the account's own rows so the detail view reads true.
 */
export function addEmails(
  ctx: WorldContext,
  { cn, plan }: AccountScope,
  ssl: EntitlementRow[],
  fsaLines: EntitlementRow[],
  { servers: accountServers, net }: LicenseServersOfAccount,
): void {
  const { rng, today, anchor, day, at, workTime, flexDate, poNumber, productByPart } = ctx;
  const to = plan.supportEmail || plan.contacts[0]?.[0] || `licensing@${plan.domain}`;
  const emailCount =
    plan.emails ?? (plan.orgType === 'Direct' || plan.orgType === 'Channel' ? rng.int(6, 18) : rng.int(0, 4));
  const kinds: string[] = ['access', 'expiry'];
  const licensed = accountServers.filter((x) => x.state === 'Active' && net.has(x.id));
  if (licensed.length) kinds.push('license', 'license');
  if (plan.elastic === 'full') kinds.push('weekly', 'weekly', 'monthly');
  if (plan.fsa) kinds.push('fsa');
  for (let i = 0; i < emailCount; i++) {
    const offset = -rng.int(0, 395);
    const kind = rng.pick(kinds);
    let sent = at(offset, workTime());
    const greeting = `<p>Dear ${esc(plan.name)} licensing contact,</p>`;
    const footer =
      '<p>Kind regards,<br>Licensing Operations</p><p style="color:#888">This message was sent automatically by the Licensing Portal. Please do not reply.</p>';
    let subject: string;
    let body: string;
    if (kind === 'license') {
      const server = rng.pick(licensed);
      const lines = [...(net.get(server.id) ?? new Map<number, number>())]
        .filter(([, n]) => n > 0)
        .map(([eid, n]) => {
          const e = ctx.rows.entitlements[eid - 1];
          const product = productByPart.get(e.partNumber!)!;
          const exp = e.endDate ? flexDate(e.endDate) : 'permanent';
          return `INCREMENT ${product.featureName} ${product.daemon} ${(e.versionDate ?? e.endDate ?? today).slice(0, 4)}.1231 ${exp} ${n} \\\n    VENDOR_STRING=customer:${cn} ISSUED=${flexDate(day(offset))} SIGN="${rng.hex(4)} ${rng.hex(4)} ${rng.hex(4)} ${rng.hex(4)}"`;
        });
      const servers = server.serverNames
        .split(',')
        .map((n, j) => `SERVER ${n} ${server.hostIds.split(',')[j]} 1055`)
        .join('\n');
      subject = `License file for ${server.name} (${server.hostIdentity})`;
      body = `${greeting}<p>The license file for host <b>${esc(server.name)}</b> (${esc(server.hostIdentity)}) was generated. Install it on the license server and restart the license manager.</p><pre>${esc(`${servers}\nVENDOR ${daemons.Platform} PORT=1056\nUSE_SERVER\n${lines.join('\n')}`)}</pre>${footer}`;
    } else if (kind === 'weekly' || kind === 'monthly') {
      const from = kind === 'weekly' ? day(offset - 7) : `${day(offset - 30).slice(0, 7)}-01`;
      const period = kind === 'weekly' ? `${from} to ${day(offset - 1)}` : from.slice(0, 7);
      const used = rng.int(200, 9000) + rng.int(0, 99) / 100;
      subject = `${kind === 'weekly' ? 'Weekly' : 'Monthly'} Elastic Statement: ${plan.name} (${period})`;
      body = `${greeting}<p>Your ${kind} elastic usage statement for <b>${esc(period)}</b> is ready.</p><table border="1" cellpadding="4"><tr><th>Account</th><td>${cn}</td></tr><tr><th>Period used</th><td>${formatAmount(used)} ${plan.currency}</td></tr></table><p>See Elastic Statements in the Licensing Portal for details by purchase order and product.</p>${footer}`;
    } else if (kind === 'fsa') {
      const line = fsaLines.length ? rng.pick(fsaLines) : undefined;
      // The confirmation goes out a few minutes after the order.
      if (line?.orderedAt && line.orderedAt.getTime() < anchor)
        sent = new Date(line.orderedAt.getTime() + 180_000);
      subject = `FSA order confirmation ${line?.poNumber ?? poNumber(offset)}`;
      body = `${greeting}<p>Entitlements were created from your Flexible Spending Account.</p><ul><li>Entitlement: ${line?.activationId ?? '-'}</li><li>Cost: ${formatAmount((line?.priceCents ?? 0) / 100)} ${plan.currency}</li></ul>${footer}`;
    } else if (kind === 'expiry') {
      const e = ssl.length ? rng.pick(ssl) : undefined;
      subject = e
        ? `Entitlement ${e.activationId} expires on ${e.endDate ?? 'maintenance end'}`
        : 'Your licensing summary';
      body = `${greeting}<p>${e ? `Entitlement <b>${e.activationId}</b> (${esc(productByPart.get(e.partNumber!)!.name)}) ends on ${e.endDate ?? e.versionDate}. Contact your account manager to renew.` : 'There are no changes to your entitlements this month.'}</p>${footer}`;
    } else {
      const [email, role] = plan.contacts.length
        ? rng.pick(plan.contacts)
        : [`licensing@${plan.domain}`, viewer];
      subject = 'Licensing Portal access updated';
      body = `${greeting}<p>Portal access for <b>${esc(email)}</b> was set to <i>${esc(role)}</i>.</p>${footer}`;
    }
    ctx.rows.emails.push({
      id: ctx.rows.emails.length + 1,
      customerNumber: cn,
      to,
      subject,
      body,
      date: sent,
    });
  }
}
