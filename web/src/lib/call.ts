import {
  type BodyInput,
  type Operation,
  operationUrl,
  type ParamsInput,
  type QueryInput,
  type ResponseOf,
} from '@lp/contract/common/operation';
import { type ApiClient, api } from './api-client.ts';

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
 * Calls a declared operation through the one API client (retries, 401, the FAILURE envelope): the path,
 * method and answer type come from the contract, so no call site restates them.
 */
export function call<const O extends Operation>(
  operation: O,
  ...[body, options]: CallArgs<O>
): Promise<ResponseOf<O>> {
  const client = options?.client ?? api;
  const text = operation.produces === 'text/plain' || operation.produces === 'text/javascript';
  return client<ResponseOf<O>>(
    operationUrl(
      operation,
      options?.params as Record<string, string | number> | undefined,
      options?.query as Record<string, string | number | boolean | undefined> | undefined,
    ),
    {
      method: operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
      body,
      as: text ? 'text' : 'json',
      signal: options?.signal,
    },
  );
}
