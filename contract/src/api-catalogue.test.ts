import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { apiCatalogue, openApiDocument } from './api-catalogue.ts';

describe('the OpenAPI document built from the operation declarations', () => {
  it("passes Redocly's recommended rules with no error", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(openApiDocument('1.0.0')),
      absoluteRef: '/openapi.json',
      config,
    });
    const described = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location[0]?.pointer}`,
    );
    expect(described.filter((p) => p.startsWith('error'))).toEqual([]);
    // The only warnings allowed: the two sign-in redirects answer 302, which the rule would like to be a 2XX.
    expect(described.filter((p) => p.startsWith('warn'))).toEqual([
      expect.stringContaining(
        'operation-2xx-response: Operation must have at least one `2XX` response. @ #/paths/~1api~1auth~1login/get',
      ),
      expect.stringContaining('@ #/paths/~1api~1auth~1callback/get'),
    ]);
  });

  it('names every operation once, and every path parameter is declared', () => {
    const ids = apiCatalogue.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = apiCatalogue.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    for (const op of apiCatalogue) {
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(op.params?.shape ?? {}).sort(), op.operationId).toEqual(inPath);
    }
  });

  it('documents path parameters, the relative server and the security of each call', () => {
    const doc = openApiDocument('1.0.0');
    expect(doc.servers).toEqual([{ url: '/', description: 'This portal' }]);
    const deleteEmail = doc.paths['/api/emails/{id}'].delete as {
      parameters: { name: string; in: string; required: boolean }[];
      security: unknown[];
    };
    expect(deleteEmail.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    ]);
    expect(deleteEmail.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect((doc.paths['/cls/v1/usage'].post as { security: unknown[] }).security).toEqual([{ server: [] }]);
    expect((doc.paths['/api/config'].get as { security: unknown[] }).security).toEqual([]);
  });
});
