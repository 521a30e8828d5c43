/**
 * Never refuse what the service accepts: every request example the official OpenAPI 2.9.0 gives
 * for the charges (cob, cobv, lotecobv), locations, webhooks and refunds passes the client-side
 * checks and is sent in the form its schema declares. The examples bend their own schema (a
 * `modalidade: "2"` where the schema says integer): such a value is accepted and sent as the
 * schema's type. Read from the YAML in ../shared/reference at test time, never copied here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isRecord } from '../../src/internal/json.ts';
import { INSTANT_LIST_KEY } from '../../src/collection/instant.ts';
import type { CobSolicitada, InstantClient } from '../../src/index.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';

const REFERENCE_DIR = fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
const officialYaml = existsSync(REFERENCE_DIR)
  ? readdirSync(REFERENCE_DIR).find((name) => /^bcb-[a-z]+-openapi-2\.9\.0\.yaml$/.test(name))
  : undefined;

type Json = Record<string, unknown>;
type Call = (api: InstantClient, body: Json) => Promise<unknown>;

const TXID = 'fb2761260e554ad593c7226beb5cb650';
const E2E = 'E12345678202009091221abcdef12345';
const CHAVE = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';

/**
 * The operations in scope, by their path in the official document (its received-payments path,
 * named after the BR Code protocol, is the SDK's `/instant`), and the SDK call that sends each
 * one's request body.
 */
const CALLS: Record<string, Call> = {
  'PUT /cob/{txid}': (api, body) => api.cob.create(TXID, body as never),
  'POST /cob': (api, body) => api.cob.create(body as unknown as CobSolicitada),
  'PATCH /cob/{txid}': (api, body) => api.cob.update(TXID, body as never),
  'PUT /cobv/{txid}': (api, body) => api.cobv.create(TXID, body as never),
  'PATCH /cobv/{txid}': (api, body) => api.cobv.update(TXID, body as never),
  'PUT /lotecobv/{id}': (api, body) => api.lotecobv.put(7, body as never),
  'PATCH /lotecobv/{id}': (api, body) => api.lotecobv.update(7, body as never),
  'POST /loc': (api, body) => api.loc.create(body as never),
  [`PUT /${INSTANT_LIST_KEY}/{e2eid}/devolucao/{id}`]: (api, body) => api.instant.refund(E2E, 'refund1', body as never),
  'PUT /webhook/{chave}': (api, body) => api.webhook.put(CHAVE, String(body['webhookUrl'])),
};

interface Example {
  operation: string;
  name: string;
  value: Json;
  schema: unknown;
}

/** Every request example of the operations in `CALLS`, with its request body's schema. */
function requestExamples(doc: Json): Example[] {
  const out: Example[] = [];
  const paths = doc['paths'] as Record<string, Record<string, Json>>;
  for (const [route, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method.toUpperCase()} ${route}`;
      if (!(key in CALLS) || operation['requestBody'] === undefined) continue;
      const content = Object.values(
        (deref(doc, operation['requestBody']) as Json)['content'] as Record<string, Json>,
      )[0]!;
      for (const [name, example] of Object.entries((content['examples'] ?? {}) as Json)) {
        const value = (deref(doc, example) as Json)['value'] as Json;
        out.push({
          operation: key,
          name: `${key} ${(example as Json)['$ref'] ?? name}`,
          value,
          schema: content['schema'],
        });
      }
    }
  }
  return out;
}

function deref(doc: Json, node: unknown): unknown {
  if (!isRecord(node) || typeof node['$ref'] !== 'string') return node;
  const target = node['$ref']
    .slice(2)
    .split('/')
    .reduce<unknown>((at, part) => (isRecord(at) ? at[part] : undefined), doc);
  return deref(doc, target);
}

/**
 * `value` in the form `schema` declares: a digit string where the schema says integer becomes
 * that integer; everything else as it is. Walks `$ref`, `allOf`, `properties` and `items`.
 */
function schemaForm(doc: Json, schema: unknown, value: unknown): unknown {
  const node = deref(doc, schema);
  if (!isRecord(node)) return value;
  let out = value;
  for (const part of (node['allOf'] as unknown[] | undefined) ?? []) out = schemaForm(doc, part, out);
  if ((node['type'] === 'integer' || node['type'] === 'number') && typeof out === 'string' && /^\d{1,15}$/.test(out))
    return Number(out);
  if (Array.isArray(out) && node['items'] !== undefined) return out.map((item) => schemaForm(doc, node['items'], item));
  if (isRecord(out) && isRecord(node['properties'])) {
    const copy: Json = { ...out };
    for (const [field, fieldSchema] of Object.entries(node['properties'])) {
      if (field in copy) copy[field] = schemaForm(doc, fieldSchema, copy[field]);
    }
    return copy;
  }
  return out;
}

const net = useMsw();

/** A service that accepts every write and records the bodies it was sent. */
function acceptEverything(): Json[] {
  const sent: Json[] = [];
  const record = async ({ request }: { request: Request }) => {
    sent.push((await request.json()) as Json);
    return HttpResponse.json({ txid: TXID, status: 'ATIVA', revisao: 0, calendario: {}, valor: {} }, { status: 201 });
  };
  net.server.use(
    http.put(`${BASE_URL}/cob/:txid`, record),
    http.post(`${BASE_URL}/cob`, record),
    http.patch(`${BASE_URL}/cob/:txid`, record),
    http.put(`${BASE_URL}/cobv/:txid`, record),
    http.patch(`${BASE_URL}/cobv/:txid`, record),
    http.put(`${BASE_URL}/lotecobv/:id`, async ({ request }) => {
      sent.push((await request.json()) as Json);
      return new HttpResponse(null, { status: 202 });
    }),
    http.patch(`${BASE_URL}/lotecobv/:id`, async ({ request }) => {
      sent.push((await request.json()) as Json);
      return new HttpResponse(null, { status: 202 });
    }),
    http.post(`${BASE_URL}/loc`, record),
    http.put(`${BASE_URL}/instant/:e2eid/devolucao/:id`, record),
    http.put(`${BASE_URL}/webhook/:chave`, async ({ request }) => {
      sent.push((await request.json()) as Json);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return sent;
}

describe.skipIf(officialYaml === undefined)(
  'the official request examples (OpenAPI 2.9.0 in ../shared/reference)',
  () => {
    const doc = officialYaml === undefined ? {} : (parse(readFileSync(REFERENCE_DIR + officialYaml, 'utf8')) as Json);
    const examples = officialYaml === undefined ? [] : requestExamples(doc);

    it('are found for every operation in scope', () => {
      expect(new Set(examples.map((e) => e.operation))).toEqual(new Set(Object.keys(CALLS)));
      // cobBody1, the due-date charge that writes its modalidades as strings, is one of them.
      const cobBody1 = examples.find((e) => e.name.endsWith('/cobBody1'));
      expect(cobBody1?.value).toMatchObject({
        valor: { multa: { modalidade: '2' }, juros: { modalidade: '2' }, desconto: { modalidade: '1' } },
      });
    });

    it.each(examples.map((e) => [e.name, e] as const))(
      '%s passes the checks and is sent in the schema form',
      async (_name, example) => {
        const sent = acceptEverything();
        const given = structuredClone(example.value);
        await CALLS[example.operation]!(testClient(), example.value);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toEqual(schemaForm(doc, example.schema, example.value));
        // The caller's object is left as it was written.
        expect(example.value).toEqual(given);
      },
    );

    it('cobBody1 is sent with its modalidades as numbers', async () => {
      const sent = acceptEverything();
      const cobBody1 = examples.find((e) => e.name.endsWith('/cobBody1'))!;
      await testClient().cobv.create(TXID, cobBody1.value as never);
      expect(sent[0]).toMatchObject({
        valor: { multa: { modalidade: 2 }, juros: { modalidade: 2 }, desconto: { modalidade: 1 } },
      });
    });
  },
);

it.runIf(officialYaml === undefined)(
  'skips the official request examples: no bcb-*-openapi-2.9.0.yaml in ../shared/reference',
  () => {
    expect(officialYaml).toBeUndefined();
  },
);
