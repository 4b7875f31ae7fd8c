import { clsApi } from '@lp/contract/cls/api';
import type { AdjustmentRequest } from '@lp/contract/cls/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';
import { entitlementsQuery } from './entitlements.ts';

/**
 * A balance adjustment (vendor busops). The entitlements are read again afterwards so Used and
 * Remaining show the new balance.
 */
export function useAdjustBalance(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AdjustmentRequest) => {
      return (await call(clsApi.adjust, request)).data;
    },
    // The query's key holds only the customer number; the name is part of the request, not of the key.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: entitlementsQuery(customerNumber, '').queryKey }),
  });
}
