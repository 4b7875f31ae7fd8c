import { webSeatsApi } from '@lp/contract/web-seats/api';
import type { WebPoolPolicy } from '@lp/contract/web-seats/schemas';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

const poolsKey = (customerNumber: string) => ['web-pools', customerNumber] as const;

/**
 * What an assignment change touches besides the pools: the directory's lists show the seats people and groups
 * hold (their query keys start with 'web-directory').
 */
const seatsChanged = ['web-directory'] as const;

/** The account's web seat pools with their policy, use, transfers and group terms (decision 071). */
export const webPoolsQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: poolsKey(customerNumber),
    queryFn: async () => (await call(webSeatsApi.pools, { customerNumber })).data,
  });

/** A write that changes the pools' numbers: both the pools and the directory are read again after a real one. */
function useSeatsMutation<A, R>(customerNumber: string, mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_result, args) => {
      if ((args as { preview?: boolean }).preview) return;
      void queryClient.invalidateQueries({ queryKey: poolsKey(customerNumber) });
      void queryClient.invalidateQueries({ queryKey: seatsChanged });
    },
  });
}

/** Replaces one pool's lease policy; the list is read again. */
export const useSavePoolPolicy = (customerNumber: string) =>
  useSeatsMutation(
    customerNumber,
    async ({ partNumber, policy }: { partNumber: string; policy: WebPoolPolicy }) =>
      (await call(webSeatsApi.savePolicy, { customerNumber, partNumber, policy })).data,
  );

type SeatsArgs = { partNumber: string; userIds: string[]; preview: boolean };

/** Direct named seats for people (preview: what it would do, nothing written). */
export const useAssignSeats = (customerNumber: string) =>
  useSeatsMutation(
    customerNumber,
    async (args: SeatsArgs) => (await call(webSeatsApi.assign, { customerNumber, ...args })).data,
  );

export const useUnassignSeats = (customerNumber: string) =>
  useSeatsMutation(
    customerNumber,
    async (args: SeatsArgs) => (await call(webSeatsApi.unassign, { customerNumber, ...args })).data,
  );

/** Replaces the named pools given to a group. */
export const useSetGroupPools = (customerNumber: string) =>
  useSeatsMutation(
    customerNumber,
    async (args: { groupId: string; partNumbers: string[]; preview: boolean }) =>
      (await call(webSeatsApi.setGroupPools, { customerNumber, ...args })).data,
  );

/** Replaces a shared pool's group terms (guaranteed, cap). */
export const useSaveGroupTerms = (customerNumber: string) =>
  useSeatsMutation(
    customerNumber,
    async (args: {
      partNumber: string;
      terms: Array<{ groupId: string; guaranteed: number; cap: number | null }>;
      preview: boolean;
    }) => (await call(webSeatsApi.saveGroupTerms, { customerNumber, ...args })).data,
  );

/** Gives one person's direct seat of a named pool to another, counted against the pool's transfer allowance. */
export const useTransferSeat = (customerNumber: string) =>
  useSeatsMutation(
    customerNumber,
    async (args: { partNumber: string; fromUserId: string; toUserId: string; preview: boolean }) =>
      (await call(webSeatsApi.transfer, { customerNumber, ...args })).data,
  );
