import ipaddr from 'ipaddr.js';

/** Spec 000 §5 / §2.10: one allow-list entry of an elastic license server. */
export interface IpRule {
  rulename: string;
  ipaddress: string;
}

export const IP_RULE_NAME_MAX = 100;
/** Upper bound on one server's list, so a request cannot grow the table without limit. */
export const IP_RULES_MAX = 500;

export const ipRuleMessages = {
  nameRequired: 'Rule Name is required.',
  nameTooLong: `Rule Name must be at most ${IP_RULE_NAME_MAX} characters.`,
  ipRequired: 'IP Address is required.',
  ipInvalid:
    'Enter an IPv4 or IPv6 address, optionally with a CIDR prefix (/0-32 for IPv4, /0-128 for IPv6).',
  duplicate: 'This IP address is already in the list.',
  tooMany: `At most ${IP_RULES_MAX} rules are allowed.`,
} as const;

const PREFIX = /^(0|[1-9]\d{0,2})$/;

/**
 * Parses an IPv4 or IPv6 address with an optional CIDR prefix and returns its one canonical text, or null.
 * Canonical form: IPv4 dotted decimal without leading zeros, IPv6 in RFC 5952 (lower case, `::` compressed);
 * a CIDR is reduced to its network address (10.1.2.3/8 → 10.0.0.0/8) and a full-length prefix (/32, /128)
 * is dropped, so two texts naming the same set of addresses normalise to the same string — that is what
 * makes the duplicate check meaningful. Only strict four-part decimal IPv4 is accepted (ipaddr.js would also
 * take "127.1" or hex parts, which users never mean), and IPv6 zone ids are refused (meaningless to a server
 * that sees remote addresses).
 */
export function normaliseIp(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > 100) return null;
  const parts = trimmed.split('/');
  if (parts.length > 2) return null;
  const [address, prefixText] = parts;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  let max: number;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    parsed = ipaddr.IPv4.parse(address);
    max = 32;
  } else if (!address.includes('%') && ipaddr.IPv6.isValid(address)) {
    parsed = ipaddr.IPv6.parse(address);
    max = 128;
  } else {
    return null;
  }
  if (prefixText === undefined) return parsed.toString();
  if (!PREFIX.test(prefixText)) return null;
  const prefix = Number(prefixText);
  if (prefix > max) return null;
  if (prefix === max) return parsed.toString();
  const network =
    parsed.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`);
  return `${network.toString()}/${prefix}`;
}

export const isValidIp = (text: string) => normaliseIp(text) !== null;

export interface IpRuleErrors {
  rulename?: string;
  ipaddress?: string;
}

export interface IpRuleListCheck {
  /** Per row, in the list's order; an empty object for a valid row. */
  rows: IpRuleErrors[];
  /** A problem of the list as a whole (too many rules). */
  list?: string;
  valid: boolean;
  /** The rules as they are stored: trimmed names, normalised addresses (only meaningful when valid). */
  normalised: IpRule[];
}

/** The one set of rules for an allow-list, used by the form (per-row messages) and the server (first message). */
export function checkIpRules(rules: readonly IpRule[]): IpRuleListCheck {
  const seen = new Set<string>();
  const normalised: IpRule[] = [];
  const rows = rules.map((rule): IpRuleErrors => {
    const errors: IpRuleErrors = {};
    const name = rule.rulename.trim();
    if (!name) errors.rulename = ipRuleMessages.nameRequired;
    else if (name.length > IP_RULE_NAME_MAX) errors.rulename = ipRuleMessages.nameTooLong;
    const ip = normaliseIp(rule.ipaddress);
    if (!rule.ipaddress.trim()) errors.ipaddress = ipRuleMessages.ipRequired;
    else if (ip === null) errors.ipaddress = ipRuleMessages.ipInvalid;
    else if (seen.has(ip)) errors.ipaddress = ipRuleMessages.duplicate;
    if (ip !== null) seen.add(ip);
    normalised.push({ rulename: name, ipaddress: ip ?? rule.ipaddress.trim() });
    return errors;
  });
  const list = rules.length > IP_RULES_MAX ? ipRuleMessages.tooMany : undefined;
  const valid = !list && rows.every((r) => !r.rulename && !r.ipaddress);
  return { rows, list, valid, normalised };
}

/** The first problem of a list in words (for the server's 400), or null when the list is valid. */
export function firstIpRuleProblem(check: IpRuleListCheck): string | null {
  if (check.list) return check.list;
  const index = check.rows.findIndex((r) => r.rulename || r.ipaddress);
  if (index < 0) return null;
  const row = check.rows[index];
  return `Rule ${index + 1}: ${row.rulename ?? row.ipaddress}`;
}

/** Whether two lists are the same, in order (spec 000 §4.6: Cancel/Save enabled when the list differs). */
export function sameIpRules(a: readonly IpRule[], b: readonly IpRule[]): boolean {
  return (
    a.length === b.length && a.every((r, i) => r.rulename === b[i].rulename && r.ipaddress === b[i].ipaddress)
  );
}
