import { credentialsApi } from '@lp/contract/credentials/api';
import { call } from '../../../lib/call.ts';

/** The account's elastic license server. */
export const getElasticDevice = (customerNumber: string, customerName: string) =>
  call(credentialsApi.elasticDevice, { customerNumber, customerName }).then((r) => r.data);

/**
 * Servers get their PIN when they are created; one made before that has none (pin null, decision 051), and the
 * server is then asked to generate one (spec 001 §4: silently), which answers the PIN in force even when another
 * page generated it first. Setting a PIN is an edit (decision 022): a view-only user gets 403 and /nopermissions.
 */
export async function getOrCreatePin(customerNumber: string, customerName: string, elasticServerId: string) {
  const { pin } = (
    await call(credentialsApi.getPin, { customerNumber, customerName, clsId: elasticServerId })
  ).data;
  if (pin !== null) return pin;
  return (await call(credentialsApi.generatePin, { customerNumber, clsId: elasticServerId })).data.pin;
}

export const changePin = (customerNumber: string, elasticServerId: string, pin: string) =>
  call(credentialsApi.changePin, { clsId: elasticServerId, customerNumber, pin });

export const getUsers = (customerNumber: string, customerName: string, elasticServerId: string) =>
  call(credentialsApi.getUsers, { customerNumber, customerName, clsId: elasticServerId }).then(
    (r) => r.data.users,
  );

export const saveUsers = (customerNumber: string, elasticServerId: string, users: string[]) =>
  call(credentialsApi.saveUsers, { clsId: elasticServerId, customerNumber, users });
