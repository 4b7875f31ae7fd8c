import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField, serverIdField } from '../common/fields.ts';

const customerNumber = customerNumberField;
const clsId = serverIdField;

/** Spec 000 §3: an allow-list rule. Name and address rules are checked by @lp/domain/ip-rules. */
export const ipRuleSchema = z.strictObject({
  rulename: z.string().max(1000),
  ipaddress: z.string().max(1000),
});
export type IpRuleDto = z.infer<typeof ipRuleSchema>;

/** POST /api/activatedelasticservers: customername and server are sent by the client and not needed. */
export const activatedElasticServersRequestSchema = z.strictObject({
  customerNumber,
  customername: z.string().max(500).optional(),
  server: z.string().max(200).optional(),
});
export const elasticServerSchema = z.object({ DeviceID: z.string(), Alias: z.string() });
export type ElasticServer = z.infer<typeof elasticServerSchema>;
export const activatedElasticServersResponseSchema = successOf(z.array(elasticServerSchema));

/** POST /api/getips */
export const getIpsRequestSchema = z.strictObject({ clsId, customerNumber });
export const getIpsResponseSchema = successOf(z.object({ whitelist: z.array(ipRuleSchema) }));

/** POST /api/setips: replaces the whole list; the answer carries the list as stored (normalised). */
export const setIpsRequestSchema = z.strictObject({
  customerNumber,
  clsId,
  // Generous bound: the domain rule (IP_RULES_MAX) answers with a clear message below it.
  whitelist: z.array(ipRuleSchema).max(1000),
});
export const setIpsResponseSchema = successOf(z.object({ whitelist: z.array(ipRuleSchema) }), {
  err: z.string().nullable(),
});
