import { webDirectoryApi } from '@lp/contract/web-directory/api';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

/** Every list of the directory starts with this key: a seat change elsewhere reads them all again. */
const directoryKey = (customerNumber: string) => ['web-directory', customerNumber] as const;

/** The account's people with their groups, seats, last seen and open sessions (decision 071). */
export const webUsersQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: [...directoryKey(customerNumber), 'users'] as const,
    queryFn: async () => (await call(webDirectoryApi.users, { customerNumber })).data,
  });

/** The account's groups with members, named pools and shared terms. */
export const webGroupsQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: [...directoryKey(customerNumber), 'groups'] as const,
    queryFn: async () => (await call(webDirectoryApi.groups, { customerNumber })).data,
  });

/**
 * A directory write: after a real one (not a preview) the directory and the pools (whose assigned and in-use
 * numbers it may change) are read again.
 */
function useDirectoryMutation<A, R>(customerNumber: string, mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_result, args) => {
      if ((args as { preview?: boolean }).preview) return;
      void queryClient.invalidateQueries({ queryKey: directoryKey(customerNumber) });
      void queryClient.invalidateQueries({ queryKey: ['web-pools', customerNumber] });
    },
  });
}

export const useInviteUsers = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async (args: { users: Array<{ email: string; name?: string }>; preview: boolean }) =>
      (await call(webDirectoryApi.invite, { customerNumber, source: 'manual', ...args })).data,
  );

export const useImportUsersCsv = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async (args: { csv: string; preview: boolean }) =>
      (await call(webDirectoryApi.importCsv, { customerNumber, ...args })).data,
  );

export const useUpdateUser = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async (change: { userId: string; state?: 'active' | 'suspended'; role?: 'member' | 'administrator' }) =>
      (await call(webDirectoryApi.update, { customerNumber, ...change })).data,
  );

export const useRemoveUsers = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async (args: { userIds: string[]; preview: boolean }) =>
      (await call(webDirectoryApi.remove, { customerNumber, ...args })).data,
  );

export const useCreateGroup = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async ({ name }: { name: string }) =>
      (await call(webDirectoryApi.createGroup, { customerNumber, name })).data,
  );

export const useRenameGroup = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async ({ groupId, name }: { groupId: string; name: string }) =>
      (await call(webDirectoryApi.renameGroup, { customerNumber, groupId, name })).data,
  );

export const useDeleteGroup = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async (args: { groupId: string; preview: boolean }) =>
      (await call(webDirectoryApi.deleteGroup, { customerNumber, ...args })).data,
  );

export const useSetGroupMembers = (customerNumber: string) =>
  useDirectoryMutation(
    customerNumber,
    async (args: { groupId: string; userIds: string[]; preview: boolean }) =>
      (await call(webDirectoryApi.setMembers, { customerNumber, ...args })).data,
  );
