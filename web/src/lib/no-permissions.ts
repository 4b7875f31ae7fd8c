import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from './api-client.ts';

/**
 * Spec 000 §6, 001 §6: a failed call sends the user to /nopermissions, except a 401, which the api client
 * already answers with sign-in.
 */
export function useGoToNoPermissions(): (error: unknown) => void {
  const navigate = useNavigate();
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError && error.status === 401)) navigate('/nopermissions');
    },
    [navigate],
  );
}
