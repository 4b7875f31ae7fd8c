import { z } from 'zod';

/** Every JSON answer carries status SUCCESS or FAILURE; failures carry err in the spec's words. */
export const failureSchema = z.object({ status: z.literal('FAILURE'), err: z.string() });

export function successOf<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('SUCCESS'), data });
}

/** A write that answers nothing but its success. */
export const okResponseSchema = z.object({ status: z.literal('SUCCESS') });
