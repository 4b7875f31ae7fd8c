import { ipRulesApi } from '@lp/contract/ip-rules/api';
import type { IpRuleDto } from '@lp/contract/ip-rules/schemas';
import { call } from '../../../lib/call.ts';

/** The account's elastic servers; the page uses the first (spec 000 §7). */
export const getActivatedElasticServers = (customerNumber: string, customername: string) =>
  call(ipRulesApi.servers, { customerNumber, customername, server: '' }).then((r) => r.data);

export const getIpRules = (customerNumber: string, elasticServerId: string) =>
  call(ipRulesApi.get, { clsId: elasticServerId, customerNumber }).then((r) => r.data.whitelist);

/** Replaces the list; answers it as stored (names trimmed, addresses normalised). */
export const setIpRules = (customerNumber: string, elasticServerId: string, whitelist: IpRuleDto[]) =>
  call(ipRulesApi.set, { customerNumber, clsId: elasticServerId, whitelist }).then((r) => r.data.whitelist);
