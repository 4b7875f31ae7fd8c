import { activationsApi } from '@lp/contract/activations/api';
import type { BodyInput } from '@lp/contract/common/operation';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { Api, Caller } from './api-fixture.ts';

/** A create's body: the account and the ETHERNET id type are the calls' unless it names others. */
export type CreateBody = Omit<BodyInput<typeof activationsApi.create>, 'customerNumber' | 'serverIdType'> & {
  customerNumber?: string;
  serverIdType?: string;
};
/** A return's body: the account is the calls' unless it names another. */
export type ReturnBody = Omit<BodyInput<typeof activationsApi.return>, 'customerNumber'> & {
  customerNumber?: string;
};

/**
 * The calls of the activation page (fulfillments of entitlements on hosts) as API tests make them: by `who`, for
 * the account `customerNumber` unless a call names another, on ETHERNET hosts. Each must answer 200 and answers
 * typed (decision 065); a refusal is `api.refused` with the operation.
 */
export function activationCalls(api: Api, who: Caller, customerNumber: string) {
  const onHost = (serverId: string, account: string) => ({
    customerNumber: account,
    serverId,
    serverIdType: 'ETHERNET',
  });
  return {
    create: (body: CreateBody) =>
      api.ok(who, activationsApi.create, { customerNumber, serverIdType: 'ETHERNET', ...body }),
    giveBack: (body: ReturnBody) => api.ok(who, activationsApi.return, { customerNumber, ...body }),
    /** The account's rows for a host: assigned (with their fulfillments) and available. */
    hostView: async (serverId: string, account: string = customerNumber) =>
      (await api.ok(who, activationsApi.allEntitlements, onHost(serverId, account))).data,
    /** The account's live fulfillments on a saved host by activation id: the fulfillment's id and seats. */
    live: async (serverId: string, account: string = customerNumber) =>
      Object.fromEntries(
        (await api.ok(who, activationsApi.hostEntitlements, onHost(serverId, account))).data.map((r) => [
          r.activationid,
          { id: r.fulfillments[0]!.FulfillmentID, count: r.fulfillments[0]!.FulfillCount },
        ]),
      ),
    /** The account's hosts. */
    servers: async (account: string = customerNumber) =>
      (await api.ok(who, licenseServersApi.list, { customerNumber: account })).data,
  };
}
