import { userApi } from '@lp/contract/user/api';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { isVendorStaff } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Spec 000 §4.1: the browser caches this as `currentUser`; the server remains the authority on every call.
  route(
    app,
    ctx,
    userApi.details,
  )(async ({ principal }) => {
    const roles: CurrentUser['roles'] = isVendorStaff(principal.vendorRoles)
      ? [...principal.vendorRoles]
      : ['user'];
    const data: CurrentUser = { email: principal.email, name: principal.name, roles };
    return { data };
  });
}
