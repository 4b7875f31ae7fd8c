import type { z } from 'zod';
import { AppError, describeZodError } from './errors.ts';

type Issue = z.core.$ZodIssue;

/**
 * The fields a request carries that its declaration does not (decision 059), as paths: `form`, `filter.critera`,
 * `tables.0.colour`. Looked for in every issue, and in the branches of a union that only failed on them.
 */
function unknownFields(issues: readonly Issue[], at: readonly PropertyKey[] = []): string[] {
  const names: string[] = [];
  for (const issue of issues) {
    const path = [...at, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      names.push(...issue.keys.map((key) => [...path, key].map(String).join('.')));
    } else if (issue.code === 'invalid_union') {
      const onlyUnknown = issue.errors.find(
        (branch) => branch.length > 0 && branch.every((i) => i.code === 'unrecognized_keys'),
      );
      if (onlyUnknown) names.push(...unknownFields(onlyUnknown, path));
    }
  }
  return names;
}

/** `Invalid request: form, too: unknown fields`, in the style of every other validation answer. */
const unknownFieldsMessage = (names: readonly string[]) =>
  `Invalid request: ${names.join(', ')}: ${names.length > 1 ? 'unknown fields' : 'unknown field'}`;

/**
 * Validates a body, query or params object with a contract schema; bad input is a 400 with one clear line.
 * Unknown fields are named first: a misspelled field is the likeliest cause of any other problem the input has
 * (a required field "missing"), and ignoring it would answer something the client did not ask for.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const unknown = unknownFields(result.error.issues);
  if (unknown.length > 0) throw new AppError('BAD_REQUEST', unknownFieldsMessage(unknown));
  throw new AppError('BAD_REQUEST', describeZodError(result.error));
}

/**
 * A call that declares no body takes none, and a call that declares no query string takes none unless it is a
 * GET (where caches, probes and documentation tools add their own parameters): fields sent anyway are refused by
 * name rather than ignored (decision 059). Uploads (`form`) read their own multipart form and are not checked here.
 */
export function refuseUndeclared(input: unknown): undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'object' && !Array.isArray(input)) {
    const names = Object.keys(input);
    if (names.length > 0) throw new AppError('BAD_REQUEST', unknownFieldsMessage(names));
    return undefined;
  }
  throw new AppError('BAD_REQUEST', 'Invalid request: body: this call takes no body');
}
