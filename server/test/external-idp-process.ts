import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'external-idp.ts');
const root = path.resolve(here, '../..');

/** One account of the external test provider (see external-idp.ts for the meaning of each field). */
export interface ExternalIdpAccount {
  login?: string;
  password: string;
  sub: string;
  email?: string;
  /** true (default), false, or null: the claim is left out */
  email_verified?: boolean | null;
  name: string;
  roles: unknown;
  preferred_username?: string;
}

export interface ExternalIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  rolesClaim: string;
  stop(): Promise<void>;
}

/**
 * Starts the external OpenID provider of the tests as its own Node process (not the portal's built-in one) and
 * resolves with its issuer once it listens. `portals` are the public URLs of the portals that sign in with it.
 */
export async function startExternalIdp(options: {
  portals: string[];
  accounts: ExternalIdpAccount[];
  rolesClaim?: string;
}): Promise<ExternalIdp> {
  const clientId = 'portal-at-ext';
  const clientSecret = 'ext-client-secret-123';
  const rolesClaim = options.rolesClaim ?? 'app_roles';
  const child: ChildProcess = spawn(process.execPath, [fixture], {
    cwd: root,
    env: {
      ...process.env,
      EXT_IDP_CLIENT_ID: clientId,
      EXT_IDP_CLIENT_SECRET: clientSecret,
      EXT_IDP_REDIRECT_URI: options.portals.map((p) => `${p}/api/auth/callback`).join(','),
      EXT_IDP_POST_LOGOUT_URI: options.portals.map((p) => `${p}/`).join(','),
      EXT_IDP_ROLES_CLAIM: rolesClaim,
      EXT_IDP_ACCOUNTS: JSON.stringify(options.accounts),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    once(child, 'exit').then(() => {
      throw new Error(`external IdP exited early:\n${stderr}`);
    }),
  ]);
  const { issuer } = JSON.parse(first) as { issuer: string };
  return {
    issuer,
    clientId,
    clientSecret,
    rolesClaim,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
