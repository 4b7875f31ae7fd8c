import { clsApi } from '@lp/contract/cls/api';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

const credentialsKey = (customerNumber: string) => ['cls-credentials', customerNumber] as const;

/** The account's license-server credentials (vendor staff). */
export const serverCredentialsQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: credentialsKey(customerNumber),
    queryFn: async () => {
      return (await call(clsApi.listCredentials, undefined, { query: { customerNumber } })).data;
    },
  });

/** Issues a credential: the answer carries the token, the only time it is ever shown. */
export function useIssueCredential(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (elasticServerId: string) => {
      return (await call(clsApi.issueCredential, { customerNumber, clsId: elasticServerId })).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialsKey(customerNumber) }),
  });
}

/** Revokes a credential. */
export function useRevokeCredential(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(clsApi.revokeCredential, undefined, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: credentialsKey(customerNumber) }),
  });
}
