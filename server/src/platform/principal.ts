import type { VendorRole } from '@lp/contract/user/schemas';
import type { FastifyRequest } from 'fastify';
import { unauthenticated } from './errors.ts';
import type { RequestOrigin } from './request-origin.ts';

/** The signed-in user behind a request (cookie session or personal API token). */
export interface Principal {
  userId: string;
  email: string;
  name: string;
  vendorRoles: VendorRole[];
  via: 'session' | 'token';
  /** The API token's id when `via` is 'token' (the audit log names the token, not only its owner) */
  tokenId?: string;
  /** The request the principal came with (audit entries record it) */
  origin?: RequestOrigin;
  /** The primary's WAL position after this caller's last write (its cookie), for reads from a replica */
  lastWrite?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}
