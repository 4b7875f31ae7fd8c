import { contactRoles } from '@lp/domain/policy';
import { companyForms, companyStems, companySuffixes, firstNames, lastNames } from '../catalogue.ts';
import { slug, type WorldContext } from './context.ts';
import { designedAccounts } from './designed-accounts.ts';
import type { AccountPlan, ElasticPlan, OrgType, ServerPlan } from './types.ts';

const { admin, viewer, coordinator } = contactRoles;

/** Fifty account plans: the designed ones first, then random companies to give lists and filters volume. */
export function planAccounts(ctx: WorldContext): AccountPlan[] {
  const { rng } = ctx;
  const plans: AccountPlan[] = [...designedAccounts];
  const names = new Set(plans.map((x) => x.name));
  const roleOf = () =>
    rng.weighted([
      [admin, 4],
      [viewer, 5],
      [coordinator, 1],
    ] as const);
  while (plans.length < 50) {
    const stem = rng.pick(companyStems);
    const name = `${stem} ${rng.pick(companySuffixes)} ${rng.pick(companyForms)}`;
    if (names.has(name)) continue;
    names.add(name);
    const domain = `${slug(stem)}.example`;
    const ssl = rng.chance(0.2) ? 0 : rng.int(3, 18);
    const elastic = rng.weighted<ElasticPlan>([
      ['full', 35],
      ['expired', 5],
      ['future', 4],
      ['none', 56],
    ]);
    const contacts: [string, string][] = [];
    for (let i = rng.int(1, 3); i > 0; i--) {
      const email = `${rng.pick(firstNames)}.${rng.pick(lastNames)}@${domain}`.toLowerCase();
      if (!contacts.some(([e]) => e === email)) contacts.push([email, roleOf()]);
    }
    const servers: ServerPlan[] = [];
    for (let i = ssl > 0 ? rng.int(0, 3) : 0; i > 0; i--) {
      const triad = rng.chance(0.15);
      const lic = (n: number) => `${slug(stem).slice(0, 8)}-lic${String(n).padStart(2, '0')}`;
      const base = lic(servers.length + 1);
      const inactive = rng.chance(0.15);
      servers.push({
        name: triad ? `${base}a,${base}b,${base}c` : base,
        type: rng.weighted([
          ['ETHERNET', 6],
          ['DISK_SERIAL_NUM', 3],
          ['FLEXID', 1.5],
        ] as const),
        triad,
        inactive,
        // Some single hosts were moved to new hardware (rehosted) some time ago.
        rehostTo: !triad && !inactive && rng.chance(0.2) ? lic(servers.length + 11) : undefined,
      });
    }
    const supportKind = rng.int(0, 9);
    plans.push({
      name,
      domain,
      orgType: rng.weighted<OrgType>([
        ['Direct', 45],
        ['Channel', 20],
        ['Indirect', 20],
        ['Undefined', 15],
      ]),
      exportStatus: rng.weighted([
        ['', 40],
        ['Approved', 25],
        ['approved', 10],
        ['Pending', 12],
        ['Denied', 8],
        ['APPROVED', 5],
      ] as const),
      accessDisabled: rng.chance(0.1),
      fnp: rng.chance(0.08),
      supportEmail:
        supportKind < 6 ? `licensing@${domain}` : supportKind < 8 ? `it-support@${domain},cae@${domain}` : '',
      ssl,
      shared: ssl > 0 && rng.chance(0.25),
      named: ssl > 0 && rng.chance(0.2),
      elastic,
      currency: rng.chance(0.3) ? 'EUR' : 'USD',
      elasticFraction: rng.pick([0.15, 0.35, 0.5, 0.68, 0.82, 0.9, 0.96, 1]),
      futureElastic: rng.chance(0.3),
      fsa: rng.chance(0.2),
      fsaFraction: rng.pick([0.2, 0.45, 0.7, 0.85, 0.96]),
      servers,
      cloud: rng.chance(0.3),
      weight: rng.int(1, 3),
      contacts,
    });
  }

  return plans;
}
