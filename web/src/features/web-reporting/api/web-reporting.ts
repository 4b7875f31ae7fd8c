import { webReportingApi } from '@lp/contract/web-reporting/api';
import { RECLAIM_PAGE_DEFAULT } from '@lp/contract/web-reporting/schemas';
import { webSeatsApi } from '@lp/contract/web-seats/api';
import type { InactiveDays } from '@lp/domain/web-reporting';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

export interface ReportPeriod {
  from: string;
  to: string;
}

const reportsKey = (customerNumber: string) => ['web-reports', customerNumber] as const;

export const utilisationQuery = (customerNumber: string, period: ReportPeriod) =>
  queryOptions({
    queryKey: [...reportsKey(customerNumber), 'utilisation', period] as const,
    queryFn: async () => (await call(webReportingApi.utilisation, { customerNumber, ...period })).data,
  });

/** The sessions by weekday and hour of one pool, or of all the account's (`partNumber` null). */
export const heatmapQuery = (customerNumber: string, period: ReportPeriod, partNumber: string | null) =>
  queryOptions({
    queryKey: [...reportsKey(customerNumber), 'heatmap', period, partNumber] as const,
    queryFn: async () =>
      (
        await call(webReportingApi.heatmap, {
          customerNumber,
          ...period,
          ...(partNumber === null ? {} : { partNumber }),
        })
      ).data,
  });

export const denialsQuery = (customerNumber: string, period: ReportPeriod) =>
  queryOptions({
    queryKey: [...reportsKey(customerNumber), 'denials', period] as const,
    queryFn: async () => (await call(webReportingApi.denials, { customerNumber, ...period })).data,
  });

/**
 * One page (from 0) of the unused named seats, RECLAIM_PAGE_DEFAULT rows each, the list's total, and which page
 * of which window it is (what is on screen while the next page loads).
 */
export const reclaimQuery = (customerNumber: string, inactiveDays: InactiveDays, page: number) =>
  queryOptions({
    queryKey: [...reportsKey(customerNumber), 'reclaim', inactiveDays, page] as const,
    queryFn: async () => ({
      ...(
        await call(webReportingApi.reclaim, {
          customerNumber,
          inactiveDays,
          offset: page * RECLAIM_PAGE_DEFAULT,
          limit: RECLAIM_PAGE_DEFAULT,
        })
      ).data,
      page,
      inactiveDays,
    }),
    // Another page of the same window keeps the current one on screen until it arrives (no spinner between
    // pages); another window shows the spinner rather than the other window's seats.
    placeholderData: (previous) => (previous?.inactiveDays === inactiveDays ? previous : undefined),
  });

/** Reclaims a direct named seat (web-seats' unassignWebSeats); the reports and the pools follow. */
export function useUnassignSeat(customerNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (seat: { partNumber: string; userId: string }) =>
      (
        await call(webSeatsApi.unassign, {
          customerNumber,
          partNumber: seat.partNumber,
          userIds: [seat.userId],
        })
      ).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: reportsKey(customerNumber) });
      void queryClient.invalidateQueries({ queryKey: ['web-pools', customerNumber] });
      void queryClient.invalidateQueries({ queryKey: ['web-directory'] });
    },
  });
}
