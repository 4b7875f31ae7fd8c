import { findInputProblem, type InputProblem } from '@lp/contract/common/input-limits';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks the items of its body one by one and reports bad ones itself (a usage batch). */
    checksItemsItself?: boolean;
  }
}

function refuse(where: string, problem: InputProblem | null): void {
  if (problem) throw badRequest(`Invalid request: ${[where, ...problem.path].join('.')}: ${problem.message}`);
}

/**
 * Refuses unstorable text (NUL, unpaired surrogates) and too-deep nesting in everything a request carries
 * before any handler or SQL sees it (decision 020): the URL's query and path parameters, the cookies and the
 * credential header first (sign-in looks them up before the body is read), then the parsed body.
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    refuse('query', findInputProblem(request.query));
    refuse('params', findInputProblem(request.params));
    refuse('cookies', findInputProblem(request.cookies));
    refuse('headers.authorization', findInputProblem(request.headers.authorization));
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.routeOptions.config.checksItemsItself) return;
    refuse('body', findInputProblem(request.body));
  });
}
