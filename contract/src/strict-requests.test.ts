import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiCatalogue } from './api-catalogue.ts';

type Node = Record<string, unknown>;

/**
 * Where a request's JSON Schema has an object that says nothing about other keys (zod's stripping `z.object`):
 * such an object would drop a misspelled field silently instead of refusing it (decision 059).
 */
function openObjects(schema: unknown, at: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => openObjects(item, `${at}/${i}`));
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Node;
  const here =
    (node.type === 'object' || 'properties' in node) && !('additionalProperties' in node) ? [at] : [];
  return [...here, ...Object.entries(node).flatMap(([key, value]) => openObjects(value, `${at}/${key}`))];
}

describe('request schemas (decision 059)', () => {
  it('every object a call takes refuses other keys, or declares them as a map', () => {
    const open = apiCatalogue.flatMap((op) =>
      (['params', 'query', 'body'] as const).flatMap((part) => {
        const schema = op[part];
        if (!schema) return [];
        return openObjects(
          z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
          `${op.operationId} ${part}`,
        );
      }),
    );
    expect(open).toEqual([]);
  });

  it('only the sign-in navigations take any query parameter (the identity provider adds its own)', () => {
    const loose = apiCatalogue
      .filter((op) => op.query && z.toJSONSchema(op.query, { io: 'input' }).additionalProperties !== false)
      .map((op) => op.operationId);
    expect(loose.sort()).toEqual(['signIn', 'signInCallback']);
  });
});
