/**
 * The global providers, read through `@opentelemetry/api`'s public functions: a client takes them
 * when telemetry is on for it (`telemetry: {}`, or `INSTANT_PAYMENTS_TELEMETRY=on` for a client
 * without the option); a client without telemetry records nothing, whatever is registered, and
 * never looks at the API's registration under its global symbol (the API's own business).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { InstantClient, generateTxid } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';

/** Where `@opentelemetry/api` (major version 1) keeps what was registered: private to it. */
const REGISTRATION = Symbol.for('opentelemetry.js.api.1');

const sandbox = createSandbox({ seed: 29 });
const spans = new InMemorySpanExporter();
beforeAll(() => sandbox.listen({ port: 0 }));
afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  trace.disable();
  await sandbox.close();
});

const namesAndErrors = () => spans.getFinishedSpans().map((span) => [span.name, span.attributes['error.type']]);

it('a client without telemetry never reads the registration symbol, on construction or on a call', async () => {
  expect(
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })),
  ).toBe(true);
  const globals = globalThis as Record<symbol, unknown>;
  const registration = globals[REGISTRATION];
  let reads = 0;
  Object.defineProperty(globalThis, REGISTRATION, {
    configurable: true,
    get: () => {
      reads++;
      return registration;
    },
  });
  try {
    const plain = new InstantClient(sandbox.clientOptions());
    await plain.cob.get(generateTxid()).catch(() => undefined);
    expect(reads).toBe(0);
  } finally {
    Object.defineProperty(globalThis, REGISTRATION, { configurable: true, writable: true, value: registration });
  }
  // And it recorded nothing, though a global provider is registered.
  expect(namesAndErrors()).toEqual([]);
});

it('telemetry: {} takes the global tracer provider', async () => {
  const client = new InstantClient({ ...sandbox.clientOptions(), telemetry: {} });
  await client.cob.get(generateTxid()).catch(() => undefined);
  expect(namesAndErrors()).toEqual([['cob.get', 'CobNaoEncontrado']]);
});

it('INSTANT_PAYMENTS_TELEMETRY=on does the same for a client without the option; other values do not', async () => {
  spans.reset();
  vi.stubEnv('INSTANT_PAYMENTS_TELEMETRY', 'off');
  await new InstantClient(sandbox.clientOptions()).cob.get(generateTxid()).catch(() => undefined);
  expect(namesAndErrors()).toEqual([]);
  vi.stubEnv('INSTANT_PAYMENTS_TELEMETRY', 'on');
  await new InstantClient(sandbox.clientOptions()).cob.get(generateTxid()).catch(() => undefined);
  expect(namesAndErrors()).toEqual([['cob.get', 'CobNaoEncontrado']]);
});

it('no source file names the registration symbol: the API is reached through its functions only', () => {
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(50);
  const naming = files.filter((file) => readFileSync(join(src, file), 'utf8').includes('opentelemetry.js.api'));
  expect(naming).toEqual([]);
});
