import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField, serverIdField } from '../common/fields.ts';

const customerNumber = customerNumberField;
const clsId = serverIdField;
// Sent by the client, not needed by the server: the account is known by its number.
const customerName = z.string().max(500).optional();

/** POST /api/devices/elastic: the account's elastic license server. */
export const elasticDeviceRequestSchema = z.strictObject({ customerNumber, customerName });
export const elasticDeviceSchema = z.object({ deviceId: z.string(), alias: z.string() });
export type ElasticDevice = z.infer<typeof elasticDeviceSchema>;
export const elasticDeviceResponseSchema = successOf(elasticDeviceSchema);

/**
 * POST /api/getpin: SUCCESS with pin null while the server has no PIN (decision 051: spec 001's "PIN not found" is
 * a state of the server, not an error, so it no longer answers 404).
 */
export const getPinRequestSchema = z.strictObject({ customerNumber, customerName, clsId });
export const storedPinResponseSchema = successOf(z.object({ pin: z.string().nullable() }));
export const pinResponseSchema = successOf(z.object({ pin: z.string() }));

/** POST /api/generatepin: gives a server without a PIN a random one; never replaces a stored PIN. */
export const generatePinRequestSchema = z.strictObject({ customerNumber, clsId });

/** POST /api/changepin: the six-digit rule (@lp/domain/credentials) answers with the spec's message. */
export const changePinRequestSchema = z.strictObject({ clsId, customerNumber, pin: z.string() });

/** POST /api/getUsers */
export const getUsersRequestSchema = z.strictObject({ customerNumber, customerName, clsId });
export const usersResponseSchema = successOf(z.object({ users: z.array(z.string()) }));

/** POST /api/saveUsers: replaces the list; the list rules (@lp/domain/credentials) answer with the spec's message. */
export const saveUsersRequestSchema = z.strictObject({
  clsId,
  customerNumber,
  // Generous bounds: the domain rule answers with the spec's message well below them.
  users: z.array(z.string().max(10_000)).max(100_000),
});
