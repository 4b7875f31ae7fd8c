import { z } from 'zod';

/** Every JSON answer carries status SUCCESS or FAILURE; failures carry err in the spec's words. */
export const statusSchema = z.enum(['SUCCESS', 'FAILURE']);

export const failureSchema = z.object({ status: z.literal('FAILURE'), err: z.string() });
export type Failure = z.infer<typeof failureSchema>;

export function successOf<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('SUCCESS'), data });
}

export function pageOf<T extends z.ZodType>(row: T) {
  return z.object({ status: z.literal('SUCCESS'), data: z.array(row), token: z.string().nullable() });
}

/** A write that answers nothing but its success. */
export const okResponseSchema = z.object({ status: z.literal('SUCCESS') });
