import type { ElasticServer, IpRuleDto } from '@lp/contract/ip-rules/schemas';
import { api } from '../../../lib/api-client.ts';

/** POST /api/activatedelasticservers: the account's elastic servers; the page uses the first (spec 000 §7). */
export const getActivatedElasticServers = (customerNumber: string, customername: string) =>
  api<{ status: 'SUCCESS'; data: ElasticServer[] }>('/api/activatedelasticservers', {
    method: 'POST',
    body: { customerNumber, customername, server: '' },
  }).then((r) => r.data);

/** POST /api/getips */
export const getIpRules = (customerNumber: string, clsId: string) =>
  api<{ status: 'SUCCESS'; data: { whitelist: IpRuleDto[] } }>('/api/getips', {
    method: 'POST',
    body: { clsId, customerNumber },
  }).then((r) => r.data.whitelist);

/** POST /api/setips: replaces the list; answers it as stored (names trimmed, addresses normalised). */
export const setIpRules = (customerNumber: string, clsId: string, whitelist: IpRuleDto[]) =>
  api<{ status: 'SUCCESS'; data: { whitelist: IpRuleDto[] } }>('/api/setips', {
    method: 'POST',
    body: { customerNumber, clsId, whitelist },
  }).then((r) => r.data.whitelist);
