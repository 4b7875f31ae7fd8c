import { createRequire } from 'node:module';
import type { Instrumentation } from '@opentelemetry/instrumentation';

/*
 * Optional OpenTelemetry tracing (issue 22 §2, decision 055), off unless an OTLP endpoint is configured with the
 * SDK's own variables: OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (or OTEL_TRACES_EXPORTER=otlp,
 * which sends to the default http://localhost:4318); OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none keep it
 * off. main.ts imports this module first, so the SDK patches node:http and pg before the app's modules load them;
 * each request is a span named by its route (@fastify/otel), with its database queries under it.
 */

const env = process.env;

export const tracingEnabled =
  env.OTEL_SDK_DISABLED !== 'true' &&
  env.OTEL_TRACES_EXPORTER !== 'none' &&
  Boolean(
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ||
      env.OTEL_TRACES_EXPORTER === 'otlp',
  );

/**
 * The SDK and its instrumentations, loaded only when tracing is on (some 540 modules, 0.4 s of every start
 * without it), and synchronously: an `await` here would let the modules main.ts imports after this one load
 * node:http and pg before they are patched.
 */
const require = createRequire(import.meta.url);

/**
 * PostgreSQL query spans. instrumentation-pg needs @opentelemetry/api 1.10 (the root package.json overrides the
 * 1.9 that lighthouse's Sentry asked for); should an install still lack it, requests are traced without their queries.
 */
function pgInstrumentation(): Instrumentation[] {
  try {
    const {
      PgInstrumentation,
    }: typeof import('@opentelemetry/instrumentation-pg') = require('@opentelemetry/instrumentation-pg');
    return [new PgInstrumentation()];
  } catch (e) {
    console.error(`tracing: no PostgreSQL query spans (${e instanceof Error ? e.message : e})`);
    return [];
  }
}

/** Prometheus scrapes come every few seconds and say nothing about users' requests. */
const scrape = (path: string | undefined) => /^\/metrics(\?|$)/.test(path ?? '');

if (tracingEnabled) {
  const { FastifyOtelInstrumentation }: typeof import('@fastify/otel') = require('@fastify/otel');
  const {
    OTLPTraceExporter,
  }: typeof import('@opentelemetry/exporter-trace-otlp-http') = require('@opentelemetry/exporter-trace-otlp-http');
  const {
    HttpInstrumentation,
  }: typeof import('@opentelemetry/instrumentation-http') = require('@opentelemetry/instrumentation-http');
  const { NodeSDK }: typeof import('@opentelemetry/sdk-node') = require('@opentelemetry/sdk-node');
  // Traces only: the SDK would also push metrics and logs over OTLP by default, and /metrics already serves the
  // metrics. An operator who wants them sets these variables.
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'licensing-portal',
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => scrape(request.url) }),
      ...pgInstrumentation(),
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        // The request and its handler are spans; each hook of each plugin would be a dozen more per request.
        instrumentHooks: false,
        ignorePaths: (options) => scrape(options.url),
        // The contract's operation id, as the metrics and the logs name it (decision 055).
        requestHook: (span, request) => {
          const operation = request.routeOptions.config?.operationId;
          if (operation) span.setAttribute('lp.operation', operation);
        },
      }),
    ],
  });
  sdk.start();
  // main.ts ends the process after its graceful close; the spans still batched go out meanwhile (best effort).
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void sdk.shutdown());
}
