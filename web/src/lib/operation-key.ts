/**
 * A new idempotency key for a write the user confirmed (kept while the same write is retried). getRandomValues,
 * unlike randomUUID, also exists on plain-HTTP intranet installs.
 */
export const newOperationKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
