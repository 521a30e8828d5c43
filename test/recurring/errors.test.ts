/**
 * Every endpoint of the recurring part against every error of section 7: each catalogue type the
 * endpoint is listed for gives its class (section 7.2), and each bare status (no problem body)
 * gives the endpoint's own class where it has one, else the general class of section 7.1.
 */
import { http, type HttpHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AcessoNegado,
  CobRConsultaInvalida,
  CobRNaoEncontrado,
  CobROperacaoInvalida,
  ErroInternoDoServidor,
  IndisponibilidadePorTempoEsgotado,
  NaoEncontrado,
  PayloadLocationRecConsultaInvalida,
  PayloadLocationRecNaoEncontrado,
  PermanentementeRemovido,
  RecConsultaInvalida,
  RecNaoEncontrada,
  RecOperacaoInvalida,
  RequisicaoInvalida,
  ServicoIndisponivel,
  SolicRecNaoEncontrada,
  SolicRecOperacaoInvalida,
  WebhookCobRConsultaInvalida,
  WebhookCobROperacaoInvalida,
  WebhookRecConsultaInvalida,
  WebhookRecOperacaoInvalida,
  type ApiErrorClass,
  type InstantClient,
} from '../../src/index.ts';
import { BASE_URL, problem, testClient, useMsw } from '../support/msw.ts';
import { ID_REC, ID_SOLIC_REC, RANGE, TXID, bare, cobRBody, inDays, recBody, solicRecBody } from './fixtures.ts';

const net = useMsw();
const api = testClient({ maxRetries: 0 });

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface Endpoint {
  name: string;
  method: Method;
  path: string;
  call: (c: InstantClient) => PromiseLike<unknown>;
  /** The catalogue types section 7.2 lists for the endpoint. */
  types: ApiErrorClass[];
  /** Bare 400 and 404. */
  400: ApiErrorClass;
  404: ApiErrorClass;
}

const endpoints: Endpoint[] = [
  {
    name: 'POST /rec',
    method: 'post',
    path: '/rec',
    call: (c) => c.rec.create(recBody()),
    types: [RecOperacaoInvalida],
    400: RecOperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'GET /rec/{idRec}',
    method: 'get',
    path: '/rec/:id',
    call: (c) => c.rec.get(ID_REC),
    types: [RecNaoEncontrada, RecConsultaInvalida],
    400: RecConsultaInvalida,
    404: RecNaoEncontrada,
  },
  {
    name: 'PATCH /rec/{idRec}',
    method: 'patch',
    path: '/rec/:id',
    call: (c) => c.rec.cancel(ID_REC),
    types: [RecNaoEncontrada, RecOperacaoInvalida],
    400: RecOperacaoInvalida,
    404: RecNaoEncontrada,
  },
  {
    name: 'GET /rec',
    method: 'get',
    path: '/rec',
    call: (c) => c.rec.list(RANGE),
    types: [RecConsultaInvalida],
    400: RecConsultaInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'POST /solicrec',
    method: 'post',
    path: '/solicrec',
    call: (c) => c.solicrec.create(solicRecBody()),
    types: [SolicRecOperacaoInvalida],
    400: SolicRecOperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'GET /solicrec/{idSolicRec}',
    method: 'get',
    path: '/solicrec/:id',
    call: (c) => c.solicrec.get(ID_SOLIC_REC),
    types: [SolicRecNaoEncontrada],
    400: RequisicaoInvalida,
    404: SolicRecNaoEncontrada,
  },
  {
    name: 'PATCH /solicrec/{idSolicRec}',
    method: 'patch',
    path: '/solicrec/:id',
    call: (c) => c.solicrec.cancel(ID_SOLIC_REC),
    types: [SolicRecOperacaoInvalida],
    400: SolicRecOperacaoInvalida,
    404: SolicRecNaoEncontrada,
  },
  {
    name: 'PUT /cobr/{txid}',
    method: 'put',
    path: '/cobr/:txid',
    call: (c) => c.cobr.create(TXID, cobRBody()),
    types: [CobROperacaoInvalida],
    400: CobROperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'POST /cobr',
    method: 'post',
    path: '/cobr',
    call: (c) => c.cobr.create(cobRBody()),
    types: [CobROperacaoInvalida],
    400: CobROperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'PATCH /cobr/{txid}',
    method: 'patch',
    path: '/cobr/:txid',
    call: (c) => c.cobr.cancel(TXID),
    types: [CobRNaoEncontrado, CobROperacaoInvalida],
    400: CobROperacaoInvalida,
    404: CobRNaoEncontrado,
  },
  {
    name: 'GET /cobr/{txid}',
    method: 'get',
    path: '/cobr/:txid',
    call: (c) => c.cobr.get(TXID),
    types: [CobRNaoEncontrado, CobRConsultaInvalida],
    400: CobRConsultaInvalida,
    404: CobRNaoEncontrado,
  },
  {
    name: 'GET /cobr',
    method: 'get',
    path: '/cobr',
    call: (c) => c.cobr.list(RANGE),
    types: [CobRConsultaInvalida],
    400: CobRConsultaInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'POST /cobr/{txid}/retentativa/{data}',
    method: 'post',
    path: '/cobr/:txid/retentativa/:data',
    call: (c) => c.cobr.retry(TXID, inDays(3)),
    types: [CobRNaoEncontrado, CobROperacaoInvalida],
    400: CobROperacaoInvalida,
    404: CobRNaoEncontrado,
  },
  {
    name: 'POST /locrec',
    method: 'post',
    path: '/locrec',
    call: (c) => c.locrec.create(),
    types: [],
    400: RequisicaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'GET /locrec',
    method: 'get',
    path: '/locrec',
    call: (c) => c.locrec.list(RANGE),
    types: [PayloadLocationRecConsultaInvalida],
    400: PayloadLocationRecConsultaInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'GET /locrec/{id}',
    method: 'get',
    path: '/locrec/:id',
    call: (c) => c.locrec.get(1),
    types: [PayloadLocationRecNaoEncontrado, PayloadLocationRecConsultaInvalida],
    400: PayloadLocationRecConsultaInvalida,
    404: PayloadLocationRecNaoEncontrado,
  },
  {
    name: 'DELETE /locrec/{id}/idRec',
    method: 'delete',
    path: '/locrec/:id/idRec',
    call: (c) => c.locrec.unlink(1),
    types: [PayloadLocationRecNaoEncontrado],
    400: RequisicaoInvalida,
    404: PayloadLocationRecNaoEncontrado,
  },
  {
    name: 'PUT /webhookrec',
    method: 'put',
    path: '/webhookrec',
    call: (c) => c.webhookrec.put('https://merchant.example/hook'),
    types: [WebhookRecOperacaoInvalida],
    400: WebhookRecOperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'GET /webhookrec',
    method: 'get',
    path: '/webhookrec',
    call: (c) => c.webhookrec.get(),
    types: [WebhookRecConsultaInvalida],
    400: WebhookRecConsultaInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'DELETE /webhookrec',
    method: 'delete',
    path: '/webhookrec',
    call: (c) => c.webhookrec.delete(),
    types: [],
    400: WebhookRecOperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'PUT /webhookcobr',
    method: 'put',
    path: '/webhookcobr',
    call: (c) => c.webhookcobr.put('https://merchant.example/hook'),
    types: [WebhookCobROperacaoInvalida],
    400: WebhookCobROperacaoInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'GET /webhookcobr',
    method: 'get',
    path: '/webhookcobr',
    call: (c) => c.webhookcobr.get(),
    types: [WebhookCobRConsultaInvalida],
    400: WebhookCobRConsultaInvalida,
    404: NaoEncontrado,
  },
  {
    name: 'DELETE /webhookcobr',
    method: 'delete',
    path: '/webhookcobr',
    call: (c) => c.webhookcobr.delete(),
    types: [],
    400: WebhookCobROperacaoInvalida,
    404: NaoEncontrado,
  },
];

const GENERAL: Array<[number, ApiErrorClass]> = [
  [403, AcessoNegado],
  [410, PermanentementeRemovido],
  [500, ErroInternoDoServidor],
  [503, ServicoIndisponivel],
  [504, IndisponibilidadePorTempoEsgotado],
];

function answer({ method, path }: Endpoint, respond: () => Response): HttpHandler {
  return http[method](`${BASE_URL}${path}`, respond);
}

async function failure(endpoint: Endpoint): Promise<Error & { status?: number; sentRequest?: boolean }> {
  const error: unknown = await Promise.resolve(endpoint.call(api)).then(
    () => new Error('expected an error'),
    (e: unknown) => e,
  );
  expect(net.requests).toHaveLength(1);
  return error as Error;
}

describe.each(endpoints)('$name', (endpoint) => {
  it.each(endpoint.types.map((Class) => [Class.errorType, Class] as const))(
    'a %s answer is that class',
    async (type, Class) => {
      const status = type.endsWith('NaoEncontrada') || type.endsWith('NaoEncontrado') ? 404 : 400;
      net.server.use(
        answer(endpoint, () =>
          problem({
            type: `https://instant.example.com/api/v2/error/${type}`,
            title: 't',
            status,
            violacoes: [{ razao: 'r', propriedade: 'p' }],
          }),
        ),
      );
      const error = await failure(endpoint);
      expect(error.constructor).toBe(Class);
      expect(error).toMatchObject({ status, sentRequest: true, violacoes: [{ razao: 'r', propriedade: 'p' }] });
    },
  );

  const byStatus: Array<[number, ApiErrorClass]> = [[400, endpoint[400]], [404, endpoint[404]], ...GENERAL];
  it.each(byStatus.map(([status, Class]) => [status, Class.errorType, Class] as const))(
    'a bare %i is %s',
    async (status, _name, Class) => {
      net.server.use(answer(endpoint, () => bare(status)));
      const error = await failure(endpoint);
      expect(error.constructor).toBe(Class);
      expect(error).toMatchObject({ status, sentRequest: true });
    },
  );
});
