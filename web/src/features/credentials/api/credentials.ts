import { messages } from '@lp/contract/common/errors';
import type { ElasticDevice } from '@lp/contract/credentials/schemas';
import { ApiError, api } from '../../../lib/api-client.ts';

type Data<T> = { status: 'SUCCESS'; data: T };

/** POST /api/devices/elastic: the account's elastic license server. */
export const getElasticDevice = (customerNumber: string, customerName: string) =>
  api<Data<ElasticDevice>>('/api/devices/elastic', {
    method: 'POST',
    body: { customerNumber, customerName },
  }).then((r) => r.data);

/**
 * POST /api/getpin; on "PIN not found" the server is asked to generate one (spec 001 §4: silently), which
 * answers the PIN in force even when another page generated it first.
 */
export async function getOrCreatePin(customerNumber: string, customerName: string, clsId: string) {
  try {
    const r = await api<Data<{ pin: string }>>('/api/getpin', {
      method: 'POST',
      body: { customerNumber, customerName, clsId },
    });
    return r.data.pin;
  } catch (e) {
    if (!(e instanceof ApiError && e.err === messages.pinNotFound)) throw e;
    const r = await api<Data<{ pin: string }>>('/api/generatepin', {
      method: 'POST',
      body: { customerNumber, clsId },
    });
    return r.data.pin;
  }
}

/** POST /api/changepin */
export const changePin = (customerNumber: string, clsId: string, pin: string) =>
  api<{ status: 'SUCCESS' }>('/api/changepin', { method: 'POST', body: { clsId, customerNumber, pin } });

/** POST /api/getUsers */
export const getUsers = (customerNumber: string, customerName: string, clsId: string) =>
  api<Data<{ users: string[] }>>('/api/getUsers', {
    method: 'POST',
    body: { customerNumber, customerName, clsId },
  }).then((r) => r.data.users);

/** POST /api/saveUsers */
export const saveUsers = (customerNumber: string, clsId: string, users: string[]) =>
  api<{ status: 'SUCCESS' }>('/api/saveUsers', { method: 'POST', body: { clsId, customerNumber, users } });
