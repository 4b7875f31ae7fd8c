import { z } from 'zod';

/** Every JSON answer carries status SUCCESS or FAILURE; failures carry err in the spec's words. */
export const failureSchema = z.object({ status: z.literal('FAILURE'), err: z.string() });

/**
 * The one success envelope, `{status: 'SUCCESS', data}`, with the fields some answers carry beside `data` (a
 * page's continuation token, a replayed order's flag, the spec's `err: null`). route() adds the status, so a
 * handler answers only what is beside it.
 */
export function successOf<T extends z.ZodType, B extends z.ZodRawShape = Record<never, never>>(
  data: T,
  beside?: B,
) {
  return z.object({ status: z.literal('SUCCESS'), data, ...(beside as B) });
}

/** A success the spec shapes without `data` (the license-server API, lastUpdatedOn, a license file). */
export function successWith<B extends z.ZodRawShape>(fields: B) {
  return z.object({ status: z.literal('SUCCESS'), ...fields });
}

/** A write that answers nothing but its success. */
export const okResponseSchema = successWith({});
