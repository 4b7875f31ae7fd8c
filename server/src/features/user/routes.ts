import type { CurrentUser } from '@lp/contract/user/schemas';
import { isVendorStaff } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';

export function registerUserRoutes(app: FastifyInstance, _ctx: AppContext): void {
  // Spec 000 §4.1: the browser caches this as `currentUser`; the server remains the authority on every call.
  app.get('/api/getUserDetails', async (request) => {
    const principal = requirePrincipal(request);
    const roles: CurrentUser['roles'] = isVendorStaff(principal.vendorRoles)
      ? [...principal.vendorRoles]
      : ['user'];
    const data: CurrentUser = { email: principal.email, name: principal.name, roles };
    return { status: 'SUCCESS', data };
  });
}
