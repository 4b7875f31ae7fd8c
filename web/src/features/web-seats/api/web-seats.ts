import { webSeatsApi } from '@lp/contract/web-seats/api';
import type { WebPoolPolicy } from '@lp/contract/web-seats/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

const poolsKey = (customerNumber: string) => ['web-pools', customerNumber] as const;

/** The account's web seat pools with their policy (decision 071). */
export const webPoolsQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: poolsKey(customerNumber),
    queryFn: async () => (await call(webSeatsApi.pools, { customerNumber })).data,
  });

/** Replaces one pool's lease policy; the list is read again. */
export function useSavePoolPolicy(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ partNumber, policy }: { partNumber: string; policy: WebPoolPolicy }) =>
      (await call(webSeatsApi.savePolicy, { customerNumber, partNumber, policy })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: poolsKey(customerNumber) }),
  });
}
