/**
 * Without the `telemetry` option a client takes the providers `@opentelemetry/api` registered
 * globally (found without importing that package), when they were registered before it was built.
 */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { InstantClient, generateTxid } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';

const sandbox = createSandbox({ seed: 29 });
beforeAll(() => sandbox.listen({ port: 0 }));
afterAll(async () => {
  trace.disable();
  await sandbox.close();
});

it('uses the global tracer provider registered before the client was built, and none built before it', async () => {
  const before = new InstantClient(sandbox.clientOptions());
  const spans = new InMemorySpanExporter();
  expect(
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })),
  ).toBe(true);
  const after = new InstantClient(sandbox.clientOptions());
  await after.cob.get(generateTxid()).catch(() => undefined);
  await before.cob.get(generateTxid()).catch(() => undefined);
  expect(spans.getFinishedSpans().map((span) => [span.name, span.attributes['error.type']])).toEqual([
    ['cob.get', 'CobNaoEncontrado'],
  ]);
});
