import { messages } from '@lp/contract/common/errors';
import { AppError } from './errors.ts';

interface Waiter {
  user: string;
  admit: (release: () => void) => void;
  timer: NodeJS.Timeout;
}

/**
 * Admission of large requests (decision 021): at most `perUser` at once for one user and `perNode` at once
 * on this node. A request over either limit waits in line up to `waitMs`, then is refused with 429 and
 * the catalogue's text. In memory, so with several API nodes the limits hold per node.
 */
export class LargeRequestGate {
  private running = 0;
  private readonly byUser = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private readonly limits: { perUser: number; perNode: number; waitMs: number };

  constructor(limits: { perUser: number; perNode: number; waitMs: number }) {
    this.limits = limits;
  }

  /** Resolves with the release function once admitted; call it exactly when the request's work ends. */
  enter(user: string): Promise<() => void> {
    if (this.fits(user)) return Promise.resolve(this.admit(user));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        user,
        admit: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          reject(new AppError('RATE_LIMITED', messages.tooManyLargeRequests));
        }, this.limits.waitMs),
      };
      this.waiting.push(waiter);
    });
  }

  private fits(user: string): boolean {
    return this.running < this.limits.perNode && (this.byUser.get(user) ?? 0) < this.limits.perUser;
  }

  private admit(user: string): () => void {
    this.running++;
    this.byUser.set(user, (this.byUser.get(user) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.byUser.get(user) ?? 1) - 1;
      if (left === 0) this.byUser.delete(user);
      else this.byUser.set(user, left);
      this.wake();
    };
  }

  /** First come, first served, skipping waiters whose own user is still at the limit. */
  private wake(): void {
    for (let i = 0; i < this.waiting.length && this.running < this.limits.perNode; ) {
      const waiter = this.waiting[i];
      if (!this.fits(waiter.user)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      clearTimeout(waiter.timer);
      waiter.admit(this.admit(waiter.user));
    }
  }
}
