/**
 * The official OpenAPI's own request examples of the recurring part, read from the reference
 * copy in ../shared/reference at test time (not copied here): each one passes the client-side
 * checks and is sent, as the schema writes it. The one that bends its schema (appendix B of the
 * recurring spec) is named, with what the client does about it. Skipped, with a test saying so,
 * when the reference copy is absent.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ApiError, IDREC_PATTERN, IDSOLICREC_PATTERN, InstantClient, type CobRSolicitada } from '../../src/index.ts';

const REFERENCE_DIR = fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
const officialYaml = existsSync(REFERENCE_DIR)
  ? readdirSync(REFERENCE_DIR).find((name) => /^bcb-[a-z]+-openapi-2\.9\.0\.yaml$/.test(name))
  : undefined;

/** The recurring part's paths (the payer's `/rec/{recUrlAccessToken}` takes no body). */
const RECURRING_PATH = /^\/(rec|solicrec|cobr|locrec|webhookrec|webhookcobr)(\/|$)/;
/** The idRec of the official answer to the PATCH example (created 2024-01-15). */
const EXAMPLE_ID_REC = 'RN1234567820240115abcdefghijk';
const EXAMPLE_ID_SOLIC_REC = 'SC876456782024021577825445312';
const EXAMPLE_TXID = '3136957d93134f2184b369e8f1c0729d';
/**
 * The examples' dates are of late 2023 and 2024 (the earliest, a confirmation request expiring on
 * 2023-12-20): on the day they were written they were in the future, as the date rules want.
 */
const EXAMPLES_WRITTEN = new Date('2023-12-01T12:00:00Z');

interface Example {
  operation: string;
  name: string;
  value: Record<string, unknown>;
}

type Node = Record<string, unknown>;

/** Every request example of the recurring paths, as `METHOD /path`, the example's name and value. */
function requestExamples(doc: Node): Example[] {
  const components = doc['components'] as Node;
  const deref = (ref: unknown, kind: string): Node => {
    const name = String((ref as Node)['$ref'] ?? '').replace(`#/components/${kind}/`, '');
    return (components[kind] as Node)[name] as Node;
  };
  const out: Example[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Node)) {
    if (!RECURRING_PATH.test(path)) continue;
    for (const [method, operation] of Object.entries(item as Node)) {
      const requestBody = (operation as Node)['requestBody'];
      if (requestBody === undefined) continue;
      const body = '$ref' in (requestBody as Node) ? deref(requestBody, 'requestBodies') : (requestBody as Node);
      const content = (body['content'] as Node)['application/json'] as Node;
      for (const ref of Object.values((content['examples'] ?? {}) as Node)) {
        const name = String((ref as Node)['$ref'])
          .split('/')
          .pop()!;
        out.push({
          operation: `${method.toUpperCase()} ${path}`,
          name,
          value: deref(ref, 'examples')['value'] as Node,
        });
      }
    }
  }
  return out;
}

/** How the SDK sends each operation; an operation missing here fails the test. */
const CALLS: Record<string, (api: InstantClient, value: Node) => Promise<unknown>> = {
  'POST /rec': (api, v) => api.rec.create(v as never),
  'PATCH /rec/{idRec}': (api, v) => api.rec.update(EXAMPLE_ID_REC, v as never),
  'POST /solicrec': (api, v) => api.solicrec.create(v as never),
  // The only revision: `cancel` sends it (compared with the example below).
  'PATCH /solicrec/{idSolicRec}': (api) => api.solicrec.cancel(EXAMPLE_ID_SOLIC_REC),
  'PUT /cobr/{txid}': (api, v) => api.cobr.create(EXAMPLE_TXID, v as never),
  'POST /cobr': (api, v) => api.cobr.create(v as unknown as CobRSolicitada),
  'PATCH /cobr/{txid}': (api, v) => api.cobr.update(EXAMPLE_TXID, v as never),
  'PUT /webhookrec': (api, v) => api.webhookrec.put(v['webhookUrl'] as string),
  'PUT /webhookcobr': (api, v) => api.webhookcobr.put(v['webhookUrl'] as string),
};

/**
 * The examples that bend their own schema (recurring spec, appendix B), and the body the client
 * sends for them: the schema's form.
 */
const APPENDIX_B: Record<string, { item: string; sent: (value: Node) => Node }> = {
  // Item 17: cep "89256-140" has 9 characters (maxLength 8): sent as its 8 digits.
  cobRBody1: {
    item: '17',
    sent: (value) => ({
      ...value,
      devedor: { ...(value['devedor'] as Node), cep: String((value['devedor'] as Node)['cep']).replace('-', '') },
    }),
  },
};

/**
 * A client whose `fetch` records what is sent and answers 201 with an empty object; its clock at
 * `now` (default the day the examples were written).
 */
function recordingClient(now: () => Date = () => EXAMPLES_WRITTEN): { api: InstantClient; sent: Request[] } {
  const sent: Request[] = [];
  const api = new InstantClient({
    baseUrl: 'https://api.psp.example/v2',
    maxRetries: 0,
    now,
    auth: { getToken: async () => 'token' },
    fetch: async (input, init) => {
      sent.push(new Request(input, init));
      return Response.json({}, { status: 201 });
    },
  });
  return { api, sent };
}

describe.skipIf(officialYaml === undefined)('request examples of the official OpenAPI 2.9.0, recurring part', () => {
  const text = officialYaml === undefined ? '' : readFileSync(REFERENCE_DIR + officialYaml, 'utf8');
  const doc = (officialYaml === undefined ? {} : parse(text)) as Node;
  const examples = officialYaml === undefined ? [] : requestExamples(doc);

  it('finds every request example of the recurring paths, and the SDK has a call for each', () => {
    expect(examples.map((e) => `${e.operation} ${e.name}`)).toEqual([
      'PUT /webhookrec recWebhookBody1',
      'PUT /webhookcobr cobRWebhookBody1',
      'PATCH /rec/{idRec} recBody3',
      'POST /rec recBody1',
      'POST /rec recBody2',
      'POST /solicrec solicRecBody1',
      'PATCH /solicrec/{idSolicRec} solicRecBody2',
      'PUT /cobr/{txid} cobRBody1',
      'PATCH /cobr/{txid} cobRBody2',
      'POST /cobr cobRBody1',
    ]);
    for (const { operation } of examples) expect(CALLS, operation).toHaveProperty([operation]);
  });

  it.each(examples)(
    '$operation $name passes the client checks and is sent as the schema writes it',
    async ({ operation, name, value }) => {
      const { api, sent } = recordingClient();
      const outcome = await CALLS[operation]!(api, value).then(
        () => 'sent',
        (error: unknown) =>
          error instanceof ApiError ? `${error.name}: ${JSON.stringify(error.violacoes)}` : String(error),
      );
      expect(outcome).toBe('sent');
      expect(sent).toHaveLength(1);
      const expected = APPENDIX_B[name]?.sent(value) ?? value;
      expect(await sent[0]!.json()).toEqual(expected);
    },
  );

  it('names the examples that bend their schema: cobRBody1 (appendix B item 17), sent with its cep as 8 digits', () => {
    const bent = examples.filter((e) => e.name in APPENDIX_B);
    expect(bent.map((e) => `${e.operation} ${e.name} (appendix B item ${APPENDIX_B[e.name]!.item})`)).toEqual([
      'PUT /cobr/{txid} cobRBody1 (appendix B item 17)',
      'POST /cobr cobRBody1 (appendix B item 17)',
    ]);
    const devedor = bent[0]!.value['devedor'] as Node;
    expect(devedor['cep']).toBe('89256-140');
    expect(String(devedor['cep']).length).toBeGreaterThan(8);
  });

  it('sends the POST /rec examples without the idRec the schema requires (appendix B item 1: the service generates it)', () => {
    const recs = examples.filter((e) => e.operation === 'POST /rec');
    expect(recs).toHaveLength(2);
    for (const { value } of recs) expect(value).not.toHaveProperty('idRec');
  });

  it('today, the same examples are refused for their past dates: the date rules are real', async () => {
    const { api, sent } = recordingClient(() => new Date());
    const byName = (name: string) => examples.find((e) => e.name === name)!.value;
    await expect(api.rec.create(byName('recBody1') as never)).rejects.toMatchObject({
      name: 'RecOperacaoInvalida',
      violacoes: [{ propriedade: 'rec.calendario.dataInicial' }],
    });
    await expect(api.cobr.create(byName('cobRBody1') as unknown as CobRSolicitada)).rejects.toMatchObject({
      name: 'CobROperacaoInvalida',
      violacoes: [{ propriedade: 'cobr.calendario.dataDeVencimento' }],
    });
    await expect(api.solicrec.create(byName('solicRecBody1') as never)).rejects.toMatchObject({
      name: 'SolicRecOperacaoInvalida',
      violacoes: [{ propriedade: 'solicrec.calendario.dataExpiracaoSolicitacao' }],
    });
    expect(sent).toHaveLength(0);
  });

  it('names its refusals as the official error examples do (type and propriedade)', async () => {
    const problems = (doc['components'] as Node)['examples'] as Node;
    const official = (name: string) => {
      const value = (problems[name] as Node)['value'] as Node;
      return {
        name: String(value['type']).split('/').pop(),
        properties: (value['violacoes'] as Node[]).map((v) => v['propriedade']),
      };
    };
    const { api } = recordingClient();
    const refusal = async (call: Promise<unknown>) => {
      const error = (await call.catch((e: unknown) => e)) as ApiError;
      return { name: error.name, properties: error.violacoes.map((v) => v.propriedade) };
    };
    const byName = (name: string) => examples.find((e) => e.name === name)!.value;
    const cobr = byName('cobRBody1');
    const rec = byName('recBody1');
    const solicrec = byName('solicRecBody1');
    expect(
      await refusal(
        api.cobr.create({ ...cobr, calendario: { dataDeVencimento: '15/04/2024' } } as unknown as CobRSolicitada),
      ),
    ).toEqual(official('OperacaoInvalidaCobRExample1'));
    expect(
      await refusal(
        api.rec.create({ ...rec, calendario: { ...(rec['calendario'] as Node), dataInicial: '2024-04' } } as never),
      ),
    ).toEqual(official('OperacaoInvalidaRecExample1'));
    expect(await refusal(api.solicrec.create({ ...solicrec, destinatario: { conta: '550689' } } as never))).toEqual(
      official('OperacaoInvalidaSolicRecExample1'),
    );
  });

  it('every idRec and idSolicRec in the examples follows the formation rule', () => {
    const idRecs = [...text.matchAll(/\bidRec: (\w+)/g)].map((m) => m[1]!);
    const idSolicRecs = [...text.matchAll(/\bidSolicRec: (\w+)/g)].map((m) => m[1]!);
    expect(idRecs.length).toBeGreaterThan(20);
    expect(idSolicRecs.length).toBeGreaterThan(2);
    expect(idRecs.filter((id) => !IDREC_PATTERN.test(id))).toEqual([]);
    expect(idSolicRecs.filter((id) => !IDSOLICREC_PATTERN.test(id))).toEqual([]);
  });
});

it.runIf(officialYaml === undefined)(
  'skips the official request examples: no bcb-*-openapi-2.9.0.yaml in ../shared/reference',
  () => {
    expect(officialYaml).toBeUndefined();
  },
);
