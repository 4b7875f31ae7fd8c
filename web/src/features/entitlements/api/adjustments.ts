import type { AdjustmentRequest } from '@lp/contract/cls/schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { entitlementsQuery } from './entitlements.ts';

export interface AdjustmentResult {
  activationId: string;
  /** The entitlement's Used after the adjustment, in units. */
  used: number;
}

/**
 * POST /api/elastic/adjustments (vendor busops). The entitlements are read again afterwards so Used and
 * Remaining show the new balance.
 */
export function useAdjustBalance(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: AdjustmentRequest) => {
      const answer = await api<{ status: 'SUCCESS'; data: AdjustmentResult }>('/api/elastic/adjustments', {
        method: 'POST',
        body: request,
      });
      return answer.data;
    },
    // The query's key holds only the customer number; the name is part of the request, not of the key.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: entitlementsQuery(customerNumber, '').queryKey }),
  });
}
