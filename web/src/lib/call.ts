import {
  type BodyInput,
  IDEMPOTENCY_KEY_HEADER,
  type Operation,
  operationUrl,
  type ParamsInput,
  type QueryInput,
  type ResponseOf,
} from '@lp/contract/common/operation';
import { type ApiClient, api } from './api-client.ts';
import { newOperationKey } from './operation-key.ts';

type IsNone<T> = [T] extends [undefined] ? true : false;

export type CallOptions<O extends Operation> = { signal?: AbortSignal; client?: ApiClient } & (IsNone<
  ParamsInput<O>
> extends true
  ? { params?: undefined }
  : { params: ParamsInput<O> }) &
  (IsNone<QueryInput<O>> extends true ? { query?: undefined } : { query?: QueryInput<O> });

/** A body when the operation declares one; options are required when it has path parameters. */
type CallArgs<O extends Operation> =
  IsNone<ParamsInput<O>> extends true
    ? IsNone<BodyInput<O>> extends true
      ? [body?: undefined, options?: CallOptions<O>]
      : [body: BodyInput<O>, options?: CallOptions<O>]
    : [body: BodyInput<O>, options: CallOptions<O>];

/**
 * How one logical call goes on the wire, from what the contract says a second delivery does (decision 064): a
 * `once` write is never retried; a `keyed` write gets one key, made here, that every attempt carries (in the body
 * field its spec names, unless the caller chose one there, or else in the Idempotency-Key header); reads and
 * idempotent writes are retried as they are.
 */
function delivery(
  operation: Operation,
  body: unknown,
): { body: unknown; retry: boolean; headers?: Record<string, string> } {
  if (operation.effect === 'once') return { body, retry: false };
  if (operation.effect !== 'keyed') return { body, retry: true };
  if (!operation.keyField)
    return { body, retry: true, headers: { [IDEMPOTENCY_KEY_HEADER]: newOperationKey() } };
  const fields = body as Record<string, unknown>;
  return {
    body: fields[operation.keyField] ? body : { ...fields, [operation.keyField]: newOperationKey() },
    retry: true,
  };
}

/**
 * Calls a declared operation through the one API client (retries, 401, the FAILURE envelope): the path,
 * method and answer type come from the contract, so no call site restates them. Only what is safe to send twice
 * is retried (`delivery`).
 */
export function call<const O extends Operation>(
  operation: O,
  ...[body, options]: CallArgs<O>
): Promise<ResponseOf<O>> {
  const client = options?.client ?? api;
  const text = operation.produces === 'text/plain' || operation.produces === 'text/javascript';
  const wire = delivery(operation, body);
  return client<ResponseOf<O>>(
    operationUrl(
      operation,
      options?.params as Record<string, string | number> | undefined,
      options?.query as Record<string, string | number | boolean | undefined> | undefined,
    ),
    {
      method: operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
      body: wire.body,
      as: text ? 'text' : 'json',
      signal: options?.signal,
      retry: wire.retry,
      headers: wire.headers,
    },
  );
}
