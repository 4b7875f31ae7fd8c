import { activationsApi } from '@lp/contract/activations/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

/** Read calls of /activations (spec 002 §7), as TanStack Query options keyed per customer and host. */

export const activationKeys = {
  all: ['activations'] as const,
  servers: (customerNumber: string) => ['activations', 'servers', customerNumber] as const,
  tab: (customerNumber: string, hostKey: string) => ['activations', 'tab', customerNumber, hostKey] as const,
};

export const serversQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: activationKeys.servers(customerNumber),
    queryFn: async () => (await call(licenseServersApi.list, { customerNumber })).data,
  });

/** A host as the screen names it: saved, or typed in the Add New Host dialog and not saved yet. */
export interface HostChoice {
  serverName: string;
  serverId: string;
  serverIdType: string;
  /** The saved host; null while new */
  saved: LicenseServer | null;
}

export const hostKeyOf = (host: HostChoice | null) =>
  host ? `${host.serverIdType}:${host.serverId}${host.saved ? '' : ':new'}` : 'none';

/** One customer's assigned and available rows on a host (only available rows for a host not saved yet). */
export const tabQuery = (customerNumber: string, host: HostChoice | null) =>
  queryOptions({
    queryKey: activationKeys.tab(customerNumber, hostKeyOf(host)),
    queryFn: async () =>
      (
        await call(activationsApi.allEntitlements, {
          customerNumber,
          ...(host?.saved ? { serverId: host.serverId, serverIdType: host.serverIdType } : {}),
        })
      ).data,
  });

/** The accounts a saved host serves that the user may see (its tabs). */
export async function hostCustomers(customerNumber: string, host: LicenseServer) {
  return (
    await call(licenseServersApi.customers, {
      customerNumber,
      hostId: host.serverId,
      hostIdType: host.serverIdType,
    })
  ).data;
}

/** How many accounts the user cannot see share the host (the shared-server warning). */
export async function hostOverride(customerNumber: string, host: LicenseServer) {
  return (
    await call(licenseServersApi.override, {
      customerNumber,
      hostId: host.serverId,
      hostIdType: host.serverIdType,
    })
  ).data;
}
