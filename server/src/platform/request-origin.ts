import type { FastifyRequest } from 'fastify';

/** What the audit log records of the request behind a change (decision 044). */
export interface RequestOrigin {
  /** The server's own id of the request (a UUID, also sent back as x-request-id) */
  requestId: string;
  /** The X-Request-Id the client sent, when it is a plausible id: the client's word, kept beside the server's */
  clientRequestId: string | null;
  clientIp: string;
}

const CLIENT_REQUEST_ID = /^[\w-]{1,64}$/;

export function requestOrigin(request: FastifyRequest): RequestOrigin {
  const given = request.headers['x-request-id'];
  return {
    requestId: request.id,
    clientRequestId: typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : null,
    clientIp: request.ip,
  };
}
