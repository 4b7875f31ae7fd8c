import { alertsApi } from '@lp/contract/alerts/api';
import type { Alert, AlertInput } from '@lp/contract/alerts/schemas';
import { ALERTS_MIN_DELAY_MS, ALERTS_REFRESH_MS } from '@lp/domain/alerts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';

/** Every alert query starts with this key, so a staff change refreshes all of them. */
const ALERTS_KEY = ['alerts'] as const;

/** The active alerts (spec 000 §4.3). */
export async function getActiveAlerts(client?: ApiClient): Promise<Alert[]> {
  return (await call(alertsApi.active, undefined, { client })).data;
}

/**
 * The banner's refresh rules live in the query: fetched when the shell mounts (sign-in), re-fetched
 * every 15 minutes, and never again within 1 minute of the last fetch (staleTime) however often a
 * navigation asks (docs/decisions/008-alerts-refresh.md).
 */
export const activeAlertsQuery = () =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'active'],
    queryFn: () => getActiveAlerts(),
    staleTime: ALERTS_MIN_DELAY_MS,
    refetchInterval: ALERTS_REFRESH_MS,
    refetchOnWindowFocus: false,
  });

/** One alert by id through the generic query; null when there is none. */
export async function getAlert(id: number, client?: ApiClient): Promise<Alert | null> {
  const answer = await call(
    alertsApi.page,
    { filter: { condition: 'ALL', criteria: [{ name: 'id', method: 'EQUALS', value: id }] }, limit: 1 },
    { client },
  );
  return answer.data[0] ?? null;
}

export const alertQuery = (id: number) =>
  queryOptions({ queryKey: [...ALERTS_KEY, 'one', id], queryFn: () => getAlert(id) });

/** Every alert, newest first, for the staff page (one call of the largest page the server allows). */
export const ADMIN_LIST_LIMIT = 1000;
export const allAlertsQuery = () =>
  queryOptions({
    queryKey: [...ALERTS_KEY, 'all'],
    queryFn: async () => {
      const answer = await call(alertsApi.page, {
        sorting: [{ name: 'date', direction: 'desc' }],
        limit: ADMIN_LIST_LIMIT,
      });
      return answer.data;
    },
  });

export const createAlert = (input: AlertInput) => call(alertsApi.create, input);
export const editAlert = (id: number, input: AlertInput) => call(alertsApi.edit, input, { params: { id } });
export const resolveAlert = (id: number) => call(alertsApi.resolve, undefined, { params: { id } });

/** A staff change is shown at once everywhere (banner included): it refreshes every alert query. */
export function useAlertMutation<V>(run: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
}
