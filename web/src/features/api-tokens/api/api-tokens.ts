import { apiTokensApi } from '@lp/contract/api-tokens/api';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

const tokensKey = ['api-tokens'] as const;

/** The signed-in user's tokens, with the default and longest lifetime a new one may have. */
export const myTokensQuery = () =>
  queryOptions({
    queryKey: [...tokensKey, 'mine'] as const,
    queryFn: async () => (await call(apiTokensApi.mine)).data,
  });

/** The tokens of an account's contacts (its administrators and vendor staff). */
export const accountTokensQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: [...tokensKey, 'account', customerNumber] as const,
    queryFn: async () => (await call(apiTokensApi.ofAccount, { customerNumber })).data.tokens,
  });

/** Every write refreshes both lists: a user's own token may also be one of the account's. */
function useTokenMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export const useCreateToken = () =>
  useTokenMutation(
    async (body: { name: string; expiresInDays: number }) => (await call(apiTokensApi.create, body)).data,
  );

/** `customerNumber` when an account's administrator revokes a contact's token. */
export const useRevokeToken = () =>
  useTokenMutation(({ id, customerNumber }: { id: string; customerNumber?: string }) =>
    call(apiTokensApi.revoke, customerNumber ? { customerNumber } : undefined, { params: { id } }),
  );
