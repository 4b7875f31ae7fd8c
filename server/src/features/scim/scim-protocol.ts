import { type Filter, parse } from 'scim2-parse-filter';

/*
 * The pure parts of SCIM 2.0 (RFC 7643/7644) as the endpoint speaks it: errors, the values identity providers
 * send loosely (Entra's "False"), paging bounds, and which filters are understood. Filters are parsed by
 * scim2-parse-filter (decision 071); this only checks the attributes they name and folds case where SCIM does.
 */

export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const schemaUrns = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The `scimType`s of RFC 7644 §3.12 this endpoint answers. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidValue'
  | 'invalidPath'
  | 'noTarget'
  | 'uniqueness'
  | 'mutability'
  | 'tooMany';

/** A refusal in SCIM's own error shape (RFC 7644 §3.12); the feature's error handler writes it. */
export class ScimError extends Error {
  readonly status: number;
  readonly scimType?: ScimType;
  constructor(status: number, detail: string, scimType?: ScimType) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

/** The error body: `status` is a string (RFC 7644 §3.12). */
export function scimErrorBody(status: number, detail: string, scimType?: string) {
  return { schemas: [schemaUrns.error], status: String(status), ...(scimType && { scimType }), detail };
}

/**
 * A SCIM boolean as identity providers send it: JSON booleans, and Entra ID's strings "True"/"False" (any case).
 * Anything else is refused (400 invalidValue).
 */
export function scimBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  throw new ScimError(400, `${attribute} must be true or false.`, 'invalidValue');
}

/** The most resources one page answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_PAGE_MAX = 200;

/**
 * `startIndex` (1-based) and `count` of a list request (RFC 7644 §3.4.2.4): a startIndex below 1 is 1, a negative
 * count 0, a count above the maximum the maximum; absent, the first page of the maximum. Not an integer: 400.
 */
export function pageOf(startIndex: unknown, count: unknown): { startIndex: number; count: number } {
  const integer = (value: unknown, name: string, absent: number) => {
    if (value === undefined || value === '') return absent;
    const text = String(value).trim();
    if (!/^[+-]?\d{1,15}$/.test(text))
      throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
    return Number(text);
  };
  return {
    startIndex: Math.max(1, integer(startIndex, 'startIndex', 1)),
    count: Math.min(SCIM_PAGE_MAX, Math.max(0, integer(count, 'count', SCIM_PAGE_MAX))),
  };
}

export type ResourceKind = 'user' | 'group';

/** Attributes a filter may name (lower-cased; sub-attributes dotted), and those compared without case. */
const filterable: Record<ResourceKind, Set<string>> = {
  user: new Set([
    'id',
    'username',
    'externalid',
    'displayname',
    'active',
    'name.formatted',
    'emails',
    'emails.value',
    'emails.type',
    'emails.primary',
    'meta.created',
    'meta.lastmodified',
  ]),
  group: new Set([
    'id',
    'displayname',
    'externalid',
    'members',
    'members.value',
    'members.display',
    'meta.created',
    'meta.lastmodified',
  ]),
};
const caseless = new Set(['username', 'emails.value', 'displayname', 'name.formatted', 'members.display']);

/** An attribute path without its schema's URN, lower-cased (`urn:…:User:userName` → `username`). */
function bareAttribute(kind: ResourceKind, path: string): string {
  const urn = `${kind === 'user' ? schemaUrns.user : schemaUrns.group}:`.toLowerCase();
  const lower = path.toLowerCase();
  return lower.startsWith(urn) ? lower.slice(urn.length) : lower;
}

/**
 * Parses a `filter` and checks every attribute it names; answers the filter with the values of caseless
 * attributes lower-cased (the resources are compared in that form too), or 400 invalidFilter.
 */
export function parseScimFilter(kind: ResourceKind, text: string): Filter {
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch (e) {
    throw new ScimError(400, `The filter cannot be read: ${(e as Error).message}`, 'invalidFilter');
  }
  const walk = (f: Filter, prefix: string): Filter => {
    switch (f.op) {
      case 'and':
      case 'or':
        return { ...f, filters: f.filters.map((c) => walk(c, prefix)) };
      case 'not':
        return { ...f, filter: walk(f.filter, prefix) };
      case '[]': {
        const attr = prefix + bareAttribute(kind, f.attrPath);
        known(attr);
        return { ...f, attrPath: attr, valFilter: walk(f.valFilter, `${attr}.`) };
      }
      default: {
        const full = prefix + bareAttribute(kind, f.attrPath);
        known(full);
        const attrPath = prefix ? full.slice(prefix.length) : full;
        if (f.op === 'pr') return { ...f, attrPath };
        const compValue =
          caseless.has(full) && typeof f.compValue === 'string' ? f.compValue.toLowerCase() : f.compValue;
        return { ...f, attrPath, compValue };
      }
    }
  };
  const known = (attr: string) => {
    if (!filterable[kind].has(attr))
      throw new ScimError(
        400,
        `The filter names an attribute this endpoint does not filter on: ${attr}.`,
        'invalidFilter',
      );
  };
  return walk(parsed, '');
}

/** Lower-cases the caseless attributes of a resource, so it can be tested against `parseScimFilter`'s filter. */
export function caselessView(resource: Record<string, unknown>): Record<string, unknown> {
  const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) out[key.toLowerCase()] = value;
  out.username = lower(out.username);
  out.displayname = lower(out.displayname);
  if (out.name && typeof out.name === 'object')
    out.name = { formatted: lower((out.name as { formatted?: unknown }).formatted) };
  if (Array.isArray(out.emails))
    out.emails = out.emails.map((e: Record<string, unknown>) => ({ ...e, value: lower(e.value) }));
  if (Array.isArray(out.members))
    out.members = out.members.map((m: Record<string, unknown>) => ({ ...m, display: lower(m.display) }));
  return out;
}

/**
 * What SQL can narrow a filter to before it is evaluated: a top-level `eq` (alone or in an `and`) on an id, an
 * e-mail (userName, emails.value), an externalId or a group's displayName. The filter is still evaluated on the
 * rows SQL answers, so the narrowing only needs to keep every row that could match.
 */
export function sqlNarrowing(filter: Filter): {
  ids?: string[];
  emails?: string[];
  externalIds?: string[];
  names?: string[];
} {
  const terms = filter.op === 'and' ? filter.filters : [filter];
  for (const term of terms) {
    if (term.op !== 'eq' || typeof term.compValue !== 'string') continue;
    const value = term.compValue;
    switch (term.attrPath) {
      case 'id':
        return { ids: [value] };
      case 'username':
      case 'emails.value':
        return { emails: [value] };
      case 'externalid':
        return { externalIds: [value] };
      case 'displayname':
        return { names: [value] };
    }
  }
  return {};
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Resource ids are the rows' uuids: anything else names nothing (and never reaches SQL). */
export const isResourceId = (id: string) => UUID.test(id);

/** The ETag of a row's version (RFC 7644 §3.14): weak, as the representation may vary with `attributes`. */
export const etagOf = (version: number) => `W/"${version}"`;

/**
 * Whether a resource at `version` is one an If-Match or If-None-Match header names (RFC 9110 §13.1.1-2; RFC 7644
 * §3.14): "*" names any, otherwise the entity tags listed. Our tags are weak and SCIM clients send back the tag they
 * were given, so tags compare weakly (the opaque part alone). A header with no tag in it names nothing.
 */
export function namesVersion(header: string, version: number): boolean {
  if (header.trim() === '*') return true;
  const wanted = `"${version}"`;
  return [...header.matchAll(/(?:W\/)?("[^"]*")/g)].some(([, opaque]) => opaque === wanted);
}

/** A write whose If-Match names another version (RFC 7644 §3.14: the resource changed since the client read it). */
export const preconditionFailed = () =>
  new ScimError(412, 'The resource has changed since this version was read (If-Match).');
