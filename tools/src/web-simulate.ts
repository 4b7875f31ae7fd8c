import type { Db } from '@lp/server/db/database';
import { simulateWebSessions, WebSimulationError } from '@lp/server/features/demo/web-simulator';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

/**
 * `web-simulate`: a month (or N days) of web sessions for one account's directory, through web-sessions' service on
 * a simulated clock ending now, in one transaction; prints what it did as JSON.
 */
export async function webSimulate(
  db: Db,
  args: { account: string; days: number; seed: number; heartbeat?: number; product?: string },
  say: Output,
): Promise<number> {
  say.err(`Simulating ${args.days} days of web sessions for account ${args.account} (seed ${args.seed})...`);
  try {
    const result = await db.transaction((tx) =>
      simulateWebSessions(tx, {
        customerNumber: args.account,
        days: args.days,
        until: new Date(),
        seed: args.seed,
        heartbeatSeconds: args.heartbeat,
        product: args.product,
      }),
    );
    say.out(JSON.stringify(result));
    return 0;
  } catch (e) {
    if (e instanceof WebSimulationError) throw new CommandError(e.message);
    throw e;
  }
}
