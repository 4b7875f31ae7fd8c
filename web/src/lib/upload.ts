import { type Operation, operationUrl, type ResponseOf } from '@lp/contract/common/operation';
import { type ApiClient, api } from './api-client.ts';

/**
 * Calls a declared multipart operation (POST /api/uploadserverid) through the one API client, so retries, 401 and
 * the anti-CSRF header behave as for every call; the path, method and answer type come from the contract.
 * Text fields are written before files: the server reads the fields that precede the file part.
 */
export function callMultipart<const O extends Operation>(
  operation: O,
  fields: Record<string, string>,
  files: Record<string, Blob>,
  options: { signal?: AbortSignal; client?: ApiClient } = {},
): Promise<ResponseOf<O>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) form.append(name, file);
  const client = options.client ?? api;
  return client<ResponseOf<O>>(operationUrl(operation), {
    method: operation.method.toUpperCase() as 'POST' | 'PUT',
    body: form,
    signal: options.signal,
  });
}
