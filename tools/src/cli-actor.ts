import os from 'node:os';
import { type AuditActor, automatedActor } from '@lp/server/features/audit/service';

/** The account running the CLI; none when the process has no passwd entry (some containers). */
function osUser(): string | null {
  try {
    return os.userInfo().username;
  } catch {
    return null;
  }
}

/**
 * Who the audit log names for a change made with `npm run cli`: an operator on the server, not a portal user,
 * so an automated actor, named after the command line and the operating-system account that ran it.
 */
export function cliActor(): AuditActor {
  const user = osUser();
  return { ...automatedActor, name: `${automatedActor.name} (command line${user ? `, ${user}` : ''})` };
}
