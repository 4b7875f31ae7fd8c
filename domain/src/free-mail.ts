import { createRequire } from 'node:module';
import type { FreeMailCheck } from './contacts.ts';

/**
 * Server-side free-mail check: the maintained `freemail` package (free + disposable domain lists, matched on
 * the registrable domain). It is CommonJS and reads its lists from disk, so it runs in Node only; the browser
 * uses `freeMailCheckFromList` from contacts.ts over the same package's free list.
 */
const freemail = createRequire(import.meta.url)('freemail') as { isFree(email: string): boolean };

export const isFreeMail: FreeMailCheck = (email) => {
  try {
    return freemail.isFree(email.trim().toLowerCase());
  } catch {
    // The package throws on non-strings only; anything it cannot judge is left to the format rule.
    return false;
  }
};
