import freeEmailDomains from 'free-email-domains/domains.json' with { type: 'json' };
import { type FreeMailCheck, freeMailCheckFromList } from './contacts.ts';

/**
 * Entries of the list that are public suffixes: names under which anyone registers a domain of their own
 * ("acme.net.ua", "acme.za.com") or gets a dynamic-DNS host. Matched as a parent domain they would make every
 * company registered under them free mail, so they are left out (as before: the old check compared the
 * registrable domain only, which is never a suffix). The unit test checks the whole list against the public
 * suffix list, so a new list that adds one fails until it is named here.
 */
export const publicSuffixesInList: ReadonlySet<string> = new Set([
  'dns.army',
  'dns.navy',
  'dyndns.org',
  'net.ua',
  'sakura.ne.jp',
  'v6.army',
  'v6.navy',
  'v6.rocks',
  'za.com',
]);

/** The domains refused as free mail: the maintained list less the public suffixes above. */
export const freeMailDomains: readonly string[] = (freeEmailDomains as string[]).filter(
  (d) => !publicSuffixesInList.has(d),
);

/**
 * The free-mail check of the server and the form: the maintained `free-email-domains` list (free providers and
 * disposable-mail services in one list, about 14,000 domains), matched on the address's domain or any parent
 * domain. Plain data, so the same check runs in Node and in the page (the portal-access chunk only, about
 * 75 kB compressed); the form and the save therefore agree on every address.
 */
export const isFreeMail: FreeMailCheck = freeMailCheckFromList(freeMailDomains);
