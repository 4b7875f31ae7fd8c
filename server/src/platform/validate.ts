import type { z } from 'zod';
import { AppError, describeZodError } from './errors.ts';

/** Validates a body, query or params object with a contract schema; bad input is a 400 with one clear line. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new AppError('BAD_REQUEST', describeZodError(result.error));
  return result.data;
}
