import type { IssuedCredential, ServerCredential } from '@lp/contract/cls/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

type Data<T> = { status: 'SUCCESS'; data: T };

const credentialsKey = (customerNumber: string) => ['cls-credentials', customerNumber] as const;

/** GET /api/cls/credentials: the account's license-server credentials (vendor staff). */
export const serverCredentialsQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: credentialsKey(customerNumber),
    queryFn: async () => {
      const answer = await api<Data<ServerCredential[]>>(
        `/api/cls/credentials?customerNumber=${encodeURIComponent(customerNumber)}`,
      );
      return answer.data;
    },
  });

/** POST /api/cls/credentials: the answer carries the token, the only time it is ever shown. */
export function useIssueCredential(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (clsId: string) => {
      const answer = await api<Data<IssuedCredential>>('/api/cls/credentials', {
        method: 'POST',
        body: { customerNumber, clsId },
      });
      return answer.data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialsKey(customerNumber) }),
  });
}

/** DELETE /api/cls/credentials/{id} */
export function useRevokeCredential(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ status: 'SUCCESS' }>(`/api/cls/credentials/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialsKey(customerNumber) }),
  });
}
