import { noticesApi } from '@lp/contract/notices/api';
import type { NoticeChoicesBody, NoticeTypeName } from '@lp/contract/notices/schemas';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

/** The account's recent notices this user receives, their choices and the account's switched-off types. */
export const noticesQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: ['notices', customerNumber] as const,
    queryFn: async () => (await call(noticesApi.list, { customerNumber })).data,
  });

export const saveNoticeChoices = (customerNumber: string, choices: NoticeChoicesBody) =>
  call(noticesApi.setChoices, { customerNumber, ...choices });

export const saveNoticeTypes = (customerNumber: string, disabledTypes: NoticeTypeName[]) =>
  call(noticesApi.setTypes, { customerNumber, disabledTypes });
