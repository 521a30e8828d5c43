/**
 * Shared fixtures of the recurring tests: ids of the formation rule, valid request bodies with
 * dates in the future, service answers shaped like the official examples, and a paged list
 * handler for msw.
 */
import { http, HttpResponse } from 'msw';
import { addDays, todayInBrasilia } from '../../src/index.ts';
import type { CobRSolicitada, RecSolicitada, SolicRecSolicitada } from '../../src/index.ts';
import { BASE_URL } from '../support/msw.ts';

/** A recurrence created on 2024-01-15 that allows retries (`RR`). */
export const ID_REC = 'RR1234567820240115abcdefghijk';
export const ID_SOLIC_REC = 'SC876456782024021577825445312';
export const TXID = '3136957d93134f2184b369e8f1c0729d';
/** A CPF of the official examples: 11 digits whose check digits do not add up (the schema asks for the pattern only). */
export const EXAMPLE_CPF = '45164632481';
export const CNPJ = '11222333000181';

/** A Brasília date `days` from today. */
export const inDays = (days: number): string => addDays(todayInBrasilia(), days);

export function recBody(): RecSolicitada {
  return {
    vinculo: {
      contrato: '63100862',
      devedor: { cpf: EXAMPLE_CPF, nome: 'Fulano de Tal' },
      objeto: 'Streaming service',
    },
    calendario: { dataInicial: inDays(10), dataFinal: inDays(375), periodicidade: 'MENSAL' },
    valor: { valorRec: '35.00' },
    politicaRetentativa: 'NAO_PERMITE',
  };
}

export function solicRecBody(): SolicRecSolicitada {
  return {
    idRec: ID_REC,
    calendario: { dataExpiracaoSolicitacao: `${inDays(7)}T12:00:00Z` },
    destinatario: { agencia: '2569', conta: '550689', cpf: '15231470190', ispbParticipante: '91193552' },
  };
}

export function cobRBody(): CobRSolicitada {
  return {
    idRec: ID_REC,
    infoAdicional: 'Streaming, April',
    calendario: { dataDeVencimento: inDays(15) },
    valor: { original: '106.07' },
    ajusteDiaUtil: true,
    devedor: {
      cep: '89256140',
      cidade: 'Uberlândia',
      email: 'payer@example.com',
      logradouro: 'Alameda Franco 1056',
      uf: 'MG',
    },
    recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE' },
  };
}

/** The service's answer to POST /rec or PATCH /rec/{idRec}. */
export function recGerada(body: object = recBody()) {
  return {
    idRec: ID_REC,
    ...body,
    recebedor: { cnpj: '01602606113708', nome: 'Empresa de Serviços SA' },
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: '2026-01-15T12:28:05.230Z' }],
    ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
  };
}

/** The service's answer to a recurring charge create or revision. */
export function cobRGerada(txid = TXID, body: object = cobRBody()) {
  return {
    ...body,
    txid,
    calendario: { criacao: todayInBrasilia(), dataDeVencimento: inDays(15) },
    recebedor: { agencia: '9708', conta: '012682', tipoConta: 'CORRENTE', cnpj: '31166575201770', nome: 'Empresa SA' },
    status: 'CRIADA',
  };
}

export function solicRecCompleta(status = 'CRIADA') {
  return {
    idSolicRec: ID_SOLIC_REC,
    ...solicRecBody(),
    status,
    atualizacao: [{ data: '2026-01-20T12:18:18.618Z', status: 'CRIADA' }],
    recPayload: {
      idRec: ID_REC,
      vinculo: recBody().vinculo,
      calendario: recBody().calendario,
      recebedor: { cnpj: '94370926517368', nome: 'Empresa de Serviços SA', ispbParticipante: '12345678' },
      atualizacao: [{ data: '2026-01-15T08:30:07.115Z', status: 'CRIADA' }],
    },
  };
}

export const RANGE = { inicio: '2026-01-01T00:00:00Z', fim: '2026-12-31T23:59:59Z' };

/**
 * A GET list handler for msw: `total` items of `item(i)`, `size` a page, under the array `key`;
 * `asked` records the pages requested.
 */
export function pagedList(path: string, key: string, total: number, size: number, item: (i: number) => object) {
  const asked: Array<string | null> = [];
  const handler = http.get(`${BASE_URL}${path}`, ({ request }) => {
    const page = new URL(request.url).searchParams.get('paginacao.paginaAtual');
    asked.push(page);
    const current = Number(page ?? 0);
    const items = Array.from({ length: Math.max(0, Math.min(size, total - current * size)) }, (_, i) =>
      item(current * size + i),
    );
    return HttpResponse.json({
      parametros: {
        ...RANGE,
        paginacao: {
          paginaAtual: current,
          itensPorPagina: size,
          quantidadeDePaginas: Math.ceil(total / size),
          quantidadeTotalDeItens: total,
        },
      },
      [key]: items,
    });
  });
  return { handler, asked };
}

/** A bare answer of `status` (no problem body), with Retry-After 0 when it is a 503. */
export function bare(status: number) {
  return new HttpResponse(null, { status, headers: status === 503 ? { 'retry-after': '0' } : {} });
}
