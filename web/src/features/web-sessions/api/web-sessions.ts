import { webSessionsApi } from '@lp/contract/web-sessions/api';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

const sessionsKey = (customerNumber: string) => ['web-sessions', customerNumber] as const;

/** The account's open web-license sessions, of one person when `userId` is given (newest first). */
export const openWebSessionsQuery = (customerNumber: string, userId?: string) =>
  queryOptions({
    queryKey: [...sessionsKey(customerNumber), userId ?? 'all'] as const,
    queryFn: async () => (await call(webSessionsApi.listOpen, { customerNumber, userId })).data,
  });

/** An administrator ends a session; the sessions, the directory (open sessions) and the pools (in use) follow. */
export function useReleaseWebSession(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (leaseId: string) =>
      (await call(webSessionsApi.adminRelease, { customerNumber, leaseId })).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionsKey(customerNumber) });
      void queryClient.invalidateQueries({ queryKey: ['web-directory', customerNumber] });
      void queryClient.invalidateQueries({ queryKey: ['web-pools', customerNumber] });
    },
  });
}
