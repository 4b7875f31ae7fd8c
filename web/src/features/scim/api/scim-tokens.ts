import { scimApi } from '@lp/contract/scim/api';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

const tokensKey = (customerNumber: string) => ['scim-tokens', customerNumber] as const;

/** The SCIM tokens of an account's web directory, newest first (never the secrets). */
export const scimTokensQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: tokensKey(customerNumber),
    queryFn: async () => (await call(scimApi.tokens, { customerNumber })).data,
  });

/** A token write; the list is read again so its new row or state shows. */
function useScimTokenMutation<A, R>(customerNumber: string, mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey(customerNumber) }),
  });
}

/** Issues a token; its answer is the only time the secret is shown. */
export const useIssueScimToken = (customerNumber: string) =>
  useScimTokenMutation(
    customerNumber,
    async ({ name }: { name: string }) => (await call(scimApi.issue, { customerNumber, name })).data,
  );

export const useRevokeScimToken = (customerNumber: string) =>
  useScimTokenMutation(
    customerNumber,
    async ({ id }: { id: string }) => (await call(scimApi.revoke, { customerNumber, id })).data,
  );
