import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** The api client already retries transport failures and 5xx; the query layer must not multiply them. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        staleTime: 60_000,
      },
      mutations: { retry: false },
    },
  });
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
