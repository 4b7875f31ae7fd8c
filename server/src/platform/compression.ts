import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers below this many bytes go out as they are: compressing them saves less than the headers cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * API answers (JSON, the streamed export pages, text) are compressed with br or gzip as the client's
 * Accept-Encoding allows (issue 21 §3: a 10 MB usage export is 1 MB gzipped); streams are compressed as they
 * are written. Must be installed before the routes, since the plugin adds its hook to each route as it is
 * declared. Static files are left alone: the build already wrote their .br/.gz copies (web/vite.config.ts),
 * and a file it did not compress (a few bytes) would not shrink. Request bodies are not decompressed: the API
 * takes plain JSON only, as before.
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook: @fastify/static marks each file route with `config.file`.
  app.addHook('onRoute', (route) => {
    if ((route.config as { file?: unknown } | undefined)?.file !== undefined) route.compress = false;
  });
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
  });
}
