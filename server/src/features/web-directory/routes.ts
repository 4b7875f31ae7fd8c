import { webDirectoryApi } from '@lp/contract/web-directory/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import {
  createWebGroupOfPortal,
  deleteWebGroupOfPortal,
  importWebUsersCsv,
  inviteWebUsers,
  listWebGroups,
  listWebUsers,
  removeWebUsersOfPortal,
  renameWebGroupOfPortal,
  setWebGroupMembersOfPortal,
  updateWebUserOfPortal,
} from './service.ts';

export function registerWebDirectoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const api = webDirectoryApi;
  route(
    app,
    ctx,
    api.users,
  )(async ({ principal, body }) => ({ data: await listWebUsers(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.invite,
  )(async ({ principal, body }) => ({ data: await inviteWebUsers(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.importCsv,
  )(async ({ principal, body }) => ({ data: await importWebUsersCsv(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.update,
  )(async ({ principal, body }) => ({ data: await updateWebUserOfPortal(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.remove,
  )(async ({ principal, body }) => ({ data: await removeWebUsersOfPortal(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.groups,
  )(async ({ principal, body }) => ({ data: await listWebGroups(ctx, principal, body.customerNumber) }));
  route(
    app,
    ctx,
    api.createGroup,
  )(async ({ principal, body }) => ({ data: await createWebGroupOfPortal(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.renameGroup,
  )(async ({ principal, body }) => ({ data: await renameWebGroupOfPortal(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.deleteGroup,
  )(async ({ principal, body }) => ({ data: await deleteWebGroupOfPortal(ctx, principal, body) }));
  route(
    app,
    ctx,
    api.setMembers,
  )(async ({ principal, body }) => ({ data: await setWebGroupMembersOfPortal(ctx, principal, body) }));
}
