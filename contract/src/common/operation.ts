import type { z } from 'zod';

/** One call of the API, with its contract schemas (the OpenAPI document at /api/docs is built from these). */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  public?: boolean;
  body?: z.ZodType;
  response?: z.ZodType;
}
