/**
 * `GET /openapi.json` and `/openapi.yaml`: a valid OpenAPI document (checked by an OpenAPI
 * validator) naming the sandbox's own origin and neutral names, and every answer the sandbox
 * gives along a whole flow (successes and refusals, collection and recurring) matches it:
 * the status is one the operation documents and the body validates against its schema.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateTxid } from '../../src/lib/ids.ts';
import {
  type Answer,
  approvedRec,
  cobrBody,
  day,
  range,
  recBody,
  solicRecBody,
  useRecSandbox,
} from './recurring/support.ts';

const h = useRecSandbox({ seed: 43 });

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document, read field by field.
type Doc = Record<string, any>;

async function documents(): Promise<{ json: Doc; yaml: Doc }> {
  const json = await h.raw('GET', '/openapi.json');
  const yaml = await h.raw('GET', '/openapi.yaml');
  expect(json.status).toBe(200);
  expect(yaml.status).toBe(200);
  expect(yaml.headers.get('content-type')).toBe('application/yaml');
  return { json: json.body, yaml: parse(yaml.body as string) };
}

// The validator's CPU-heavy work comes after the last request: a long pause between requests can
// meet the server closing an idle keep-alive connection just as the client reuses it.
describe('the OpenAPI document', () => {
  it('matches every answer the sandbox gives along a whole flow, collection and recurring, refusals included', async () => {
    const { json: doc } = await documents();
    const answers: Array<{ method: string; path: string; got: Answer }> = [];
    const call = async (method: string, path: string, body?: unknown) => {
      const got = await h.call(method, path, body);
      answers.push({ method, path: path.split('?')[0]!, got });
      return got;
    };
    const key = h.sandbox.ownKeys[0]!;
    // Immediate charges, locations, payments and refunds.
    const txid = generateTxid();
    const cob = await call('PUT', `/cob/${txid}`, {
      calendario: { expiracao: 3600 },
      valor: { original: '10.00' },
      chave: key,
    });
    await call('PATCH', `/cob/${txid}`, { solicitacaoPagador: 'Pedido 1' });
    // The payer's side, at the origin: the signed payload and its key set.
    for (const path of [new URL(`https://${cob.body.location}`).pathname, '/qr/v2/jwks.json']) {
      answers.push({ method: 'GET', path, got: await h.raw('GET', path) });
    }
    await call('POST', '/cob', { valor: { original: '1.00' }, chave: key });
    await call('GET', `/cob?${range()}`);
    await call('PUT', `/cob/${generateTxid()}`, { valor: { original: '10' }, chave: key });
    await call('GET', `/cob/${generateTxid()}`);
    const paid = await h.raw('POST', `/sandbox/charges/${txid}/pay`, {});
    await call('GET', `/cob/${txid}`);
    const e2eid = paid.body.endToEndId as string;
    await call('GET', `/instant/${e2eid}`);
    await call('GET', `/instant?${range()}`);
    await call('PUT', `/instant/${e2eid}/devolucao/D1`, { valor: '1.00' });
    await call('GET', `/instant/${e2eid}/devolucao/D1`);
    const loc = await call('POST', '/loc', { tipoCob: 'cob' });
    await call('GET', `/loc/${loc.body.id}`);
    await call('GET', `/loc?${range()}`);
    await call('DELETE', `/loc/${cob.body.loc.id}/txid`);
    // Due-date charges and a batch.
    const due = generateTxid();
    const cobv = {
      calendario: { dataDeVencimento: day(10) },
      devedor: { cpf: '12345678909', nome: 'Fulano' },
      valor: { original: '5.00' },
      chave: key,
    };
    await call('PUT', `/cobv/${due}`, cobv);
    await call('PATCH', `/cobv/${due}`, { valor: { original: '6.00' } });
    await call('GET', `/cobv/${due}`);
    await call('GET', `/cobv?${range()}`);
    await call('PUT', '/lotecobv/1', { descricao: 'Lote', cobsv: [{ ...cobv, txid: generateTxid() }] });
    await call('PATCH', '/lotecobv/1', { cobsv: [{ ...cobv, txid: generateTxid() }] });
    await call('GET', '/lotecobv/1');
    await call('GET', `/lotecobv?${range()}`);
    // Webhooks.
    await call('PUT', `/webhook/${key}`, { webhookUrl: 'https://shop.example/hooks' });
    await call('GET', `/webhook/${key}`);
    await call('GET', `/webhook?${range()}`);
    await call('DELETE', `/webhook/${key}`);
    for (const name of ['webhookrec', 'webhookcobr']) {
      await call('PUT', `/${name}`, { webhookUrl: 'https://shop.example/hooks' });
      await call('GET', `/${name}`);
      await call('DELETE', `/${name}`);
    }
    // The recurring part.
    const created = await call('POST', '/rec', recBody());
    await call('GET', `/rec/${created.body.idRec}`);
    await call('GET', `/rec?${range()}`);
    const solic = await call('POST', '/solicrec', solicRecBody(created.body.idRec));
    await call('GET', `/solicrec/${solic.body.idSolicRec}`);
    await call('PATCH', `/solicrec/${solic.body.idSolicRec}`, { status: 'CANCELADA' });
    await call('PATCH', `/rec/${created.body.idRec}`, { status: 'CANCELADA' });
    const idRec = await approvedRec(h);
    const recurring = await call('POST', '/cobr', cobrBody(idRec, h.account, day(12)));
    await call('GET', `/cobr/${recurring.body.txid}`);
    await call('GET', `/cobr?${range()}`);
    await call('PATCH', `/cobr/${recurring.body.txid}`, { status: 'CANCELADA' });
    const locrec = await call('POST', '/locrec');
    await call('GET', `/locrec/${locrec.body.id}`);
    await call('GET', `/locrec?${range()}`);
    await call('DELETE', `/locrec/${locrec.body.id}/idRec`);

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    formats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const mismatches: string[] = [];
    for (const { method, path, got } of answers) {
      const template =
        doc.paths[path] !== undefined
          ? path
          : Object.keys(doc.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
      const operation = template === undefined ? undefined : doc.paths[template][method.toLowerCase()];
      const documented = operation?.responses[String(got.status)];
      if (documented === undefined) {
        mismatches.push(`${method} ${path} answered ${got.status}, not documented: ${JSON.stringify(got.body)}`);
        continue;
      }
      const content = documented.content as Doc | undefined;
      if (content === undefined) {
        if (got.body !== undefined) mismatches.push(`${method} ${path} ${got.status}: a body where none is documented`);
        continue;
      }
      const [type, { schema }] = Object.entries(content)[0]!;
      if (got.headers.get('content-type') !== type)
        mismatches.push(`${method} ${path} ${got.status}: ${got.headers.get('content-type')}, not ${type}`);
      const validate = ajv.compile(schema.$ref === undefined ? schema : { $ref: `doc${schema.$ref}` });
      if (!validate(got.body)) mismatches.push(`${method} ${path} ${got.status}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(mismatches).toEqual([]);
    const answered = new Set(answers.map((a) => `${a.method} ${a.got.status}`));
    expect(answered).toContain('PUT 400');
    expect(answered).toContain('GET 404');
    const operations = Object.values(doc.paths).flatMap((item) =>
      Object.keys(item as Doc).filter((k) => k !== 'servers'),
    );
    expect(answers.length).toBeGreaterThanOrEqual(operations.length - 6);
  });

  it('is valid OpenAPI, the same in JSON and YAML, with this origin in servers and neutral names only', async () => {
    const { json, yaml } = await documents();
    expect(yaml).toEqual(json);
    const verdict = await new Validator().validate(json);
    expect(verdict.errors ?? []).toEqual([]);
    expect(verdict.valid).toBe(true);
    expect(json.servers).toEqual([{ url: h.sandbox.baseUrl }]);
    expect(json.components.securitySchemes.OAuth2.flows.clientCredentials.tokenUrl).toBe(
      h.sandbox.credentials.tokenUrl,
    );
    expect(json.paths['/cob/{txid}'].put.security).toEqual([{ OAuth2: ['cob.write'] }]);
    expect(json.paths['/instant/{e2eid}/devolucao/{id}'].put.security).toEqual([{ OAuth2: ['instant.write'] }]);
    expect(JSON.stringify(json)).not.toMatch(/p[i]x/i);
    const ids = Object.values(json.paths).flatMap((item) =>
      Object.entries(item as Doc).flatMap(([key, op]) => (key === 'servers' ? [] : [op.operationId])),
    );
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
