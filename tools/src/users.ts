import { normaliseEmail } from '@lp/domain/contacts';
import type { Db } from '@lp/server/db/database';
import {
  addBuiltInUser,
  checkVendorRoles,
  disableUser,
  enableUser,
  passwordLinkFor,
  relinkUsers,
  removeUser,
  UserAdminError,
} from '@lp/server/features/auth/user-admin';
import { rowsOf } from '@lp/server/features/demo/seed';
import type { Config } from '@lp/server/platform/config';
import { sql } from 'drizzle-orm';
import { cliActor } from './cli-actor.ts';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

export interface UserListing {
  email: string;
  name: string;
  vendorRoles: string[];
  disabled: boolean;
  /** The identity provider's subject the user is bound to (decision 042), null until the first sign-in */
  subject: string | null;
  accounts: { customerNumber: string; customerName: string; role: string }[];
}

/** Every portal user (and built-in IdP account not yet signed in) with vendor roles and contact roles per account. */
export async function listUsers(db: Db): Promise<UserListing[]> {
  const people = rowsOf<{
    email: string;
    name: string;
    vendor_roles: string[];
    disabled: boolean;
    subject: string | null;
  }>(
    await db.execute(sql`
      select email, name, vendor_roles, disabled_at is not null as disabled, idp_subject as subject from users
      union all
      select lower(i.email), i.name, i.roles, false, null from idp_accounts i
        where not exists (select 1 from users u where lower(u.email) = lower(i.email))
      order by 1`),
  );
  const contacts = rowsOf<{ email: string; customer_number: string; name: string; role: string }>(
    await db.execute(sql`
      select pc.email, pc.customer_number, a.name, pc.role
      from portal_contacts pc join accounts a on a.customer_number = pc.customer_number
      order by pc.customer_number`),
  );
  return people.map((p) => ({
    email: p.email,
    name: p.name,
    vendorRoles: p.vendor_roles,
    disabled: p.disabled,
    subject: p.subject,
    accounts: contacts
      .filter((c) => c.email === p.email.toLowerCase())
      .map((c) => ({ customerNumber: c.customer_number, customerName: c.name, role: c.role })),
  }));
}

export const users = {
  async list(db: Db, json: boolean, say: Output) {
    const listing = await listUsers(db);
    if (json) {
      say.out(JSON.stringify(listing, null, 2));
      return 0;
    }
    for (const u of listing) {
      const roles = u.vendorRoles.length ? ` [${u.vendorRoles.join(', ')}]` : '';
      const state = u.disabled ? ' - DISABLED' : '';
      say.out(
        `${u.email} (${u.name})${roles}${u.accounts.length || u.vendorRoles.length ? '' : ' - no account'}${state}`,
      );
      for (const a of u.accounts) say.out(`    ${a.customerNumber} ${a.customerName}: ${a.role}`);
    }
    return 0;
  },

  async add(db: Db, config: Config, input: { email: string; name?: string; roles: string[] }, say: Output) {
    if (!config.builtInIdp)
      throw new CommandError(
        'OIDC_ISSUER is set: people sign in through that identity provider, which also gives the vendor roles (OIDC_ROLES_CLAIM). users add is for the built-in sign-in.',
      );
    const link = await admin(() =>
      addBuiltInUser(db, cliActor(), {
        ...input,
        roles: checkVendorRoles(input.roles),
        publicUrl: config.publicUrl,
      }),
    );
    printLink(say, input.email, link);
    return 0;
  },

  async 'password-link'(db: Db, config: Config, email: string, say: Output) {
    const link = await admin(() => passwordLinkFor(db, cliActor(), email, config.publicUrl));
    printLink(say, email, link);
    return 0;
  },

  async disable(db: Db, _config: Config, email: string, say: Output) {
    const result = await admin(() => disableUser(db, cliActor(), email));
    say.out(
      result.alreadyDisabled
        ? `${email} was already disabled.`
        : `Disabled ${email}: ${result.sessions} session(s) ended, ${result.tokens} token(s) revoked.`,
    );
    return 0;
  },

  async enable(db: Db, _config: Config, email: string, say: Output) {
    const changed = await admin(() => enableUser(db, cliActor(), email));
    say.out(changed ? `Enabled ${email}.` : `${email} was not disabled.`);
    return 0;
  },

  async remove(db: Db, _config: Config, email: string, say: Output) {
    const { accounts, tokens } = await admin(() => removeUser(db, cliActor(), email));
    say.out(
      `Removed ${email}: ${tokens} token(s) revoked, contact entry removed from ${accounts.length} account(s)${accounts.length ? ` (${accounts.join(', ')})` : ''}.`,
    );
    return 0;
  },

  async relink(db: Db, who: { email?: string; all: boolean }, say: Output) {
    const n = await admin(() => relinkUsers(db, cliActor(), who));
    say.out(
      `${n} user(s) unbound from their identity-provider subject; the next sign-in with a verified e-mail binds again.`,
    );
    return 0;
  },
};

/** The operator's mistakes (unknown user, bad role) are messages, not stack traces. */
export async function admin<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof UserAdminError) throw new CommandError(e.message);
    throw e;
  }
}

function printLink(say: Output, email: string, link: { url: string; expiresAt: Date }) {
  say.out(link.url);
  say.err(
    `Set-password link for ${normaliseEmail(email)}, usable once until ${link.expiresAt.toISOString()}. Send it to the person over a channel you trust; it is not stored and cannot be shown again.`,
  );
}
