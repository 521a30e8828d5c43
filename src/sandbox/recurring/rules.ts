/**
 * The sandbox's own judge of recurring requests (recurring spec 2 and 7.3), written apart from
 * the client's rules. Each broken rule is named as the catalogue names it: where the catalogue
 * speaks of an object (`rec.vinculo`, `solicrec.destinatario`, `cobr.calendario`, `cobr.recebedor`,
 * `cobr.devedor`), anything wrong inside it is flagged on the object; where it names a field
 * (`rec.calendario.dataInicial`, `rec.valor.valorRec`, `cobr.calendario.dataDeVencimento`,
 * `cobr.recebedor.conta`), on the field. Outside the catalogue's list: `rec.ativacao.dadosJornada.txid`
 * and `cobr.ajusteDiaUtil` (the wire paths), `rec.idRec` (given, though the agent generates it),
 * and the path parameters by their bare names (`idRec`, `txid`, `data`, `id`). Both amounts filled
 * is flagged on `rec.valor.valorMinimoRecebedor`, the field the schema forbids beside `valorRec`.
 *
 * Documents are judged by the schema's patterns only (11 digits, 14 of [0-9A-Z]): the official
 * examples carry CPFs without valid check digits, and the service accepts its own examples.
 * What needs state (the creation day, the accounts, the locations) comes in as arguments.
 */
import { isCivilDate, isRfc3339 } from '../../lib/dates.ts';
import { isValidTxid } from '../../lib/ids.ts';
import { MONEY_PATTERN } from '../../lib/money.ts';
import { type Judge, isObject, type Json } from '../rules.ts';
import type { OwnAccount } from './state.ts';

export const ID29 = /^[a-zA-Z0-9]{29}$/;
const CPF = /^\d{11}$/;
const CNPJ = /^[0-9A-Z]{14}$/;
const ISPB = /^[0-9A-Z]{8}$/;
export const PERIODS: readonly string[] = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL'];
export const POLICIES: readonly string[] = ['NAO_PERMITE', 'PERMITE_3R_7D'];
const ACCOUNT_TYPES: readonly string[] = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'];
const COBR_STATUSES: readonly string[] = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'];
export const CANCELLED = 'CANCELADA';

const isMoney = (v: unknown): v is string => typeof v === 'string' && MONEY_PATTERN.test(v);
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const optionalText = (v: unknown, max: number): boolean => v === undefined || isText(v, max);

/** A person or a company: exactly one of cpf and cnpj, by pattern, and a name of at most `maxName`. */
function isParty(value: unknown, maxName: number, withName = true): boolean {
  if (!isObject(value)) return false;
  const { cpf, cnpj, nome } = value;
  if ((cpf === undefined) === (cnpj === undefined)) return false;
  const document =
    cpf === undefined ? typeof cnpj === 'string' && CNPJ.test(cnpj) : typeof cpf === 'string' && CPF.test(cpf);
  return document && (!withName || isText(nome, maxName));
}

function isActivation(ativacao: unknown): boolean {
  if (!isObject(ativacao)) return false;
  const dados = ativacao['dadosJornada'];
  return dados === undefined || (isObject(dados) && isValidTxid(dados['txid']));
}

/** `POST /rec`: every rule the body alone shows, and dataInicial against the creation day `day`. */
export function judgeRec(j: Judge, body: unknown, day: string): void {
  if (!isObject(body)) return j.flag('rec', 'A recorrência deve ser um objeto.');
  // The agent generates idRec (appendix B, item 1); one given must still respect its schema.
  if (body['idRec'] !== undefined && !(typeof body['idRec'] === 'string' && ID29.test(body['idRec']))) {
    j.flag('rec.idRec', 'idRec tem 29 letras ou dígitos.', body['idRec']);
  }
  const vinculo = body['vinculo'];
  const fineLink =
    isObject(vinculo) &&
    isText(vinculo['contrato'], 35) &&
    optionalText(vinculo['objeto'], 35) &&
    isParty(vinculo['devedor'], 140);
  if (!fineLink)
    j.flag(
      'rec.vinculo',
      'O objeto rec.vinculo não respeita o schema (contrato e objeto até 35, devedor com cpf ou cnpj e nome até 140).',
    );
  const calendario = isObject(body['calendario']) ? body['calendario'] : {};
  const { dataInicial, dataFinal, periodicidade } = calendario;
  if (!isCivilDate(dataInicial))
    j.flag(
      'rec.calendario.dataInicial',
      'O campo rec.calendario.dataInicial não respeita o schema (AAAA-MM-DD).',
      dataInicial,
    );
  else if (dataInicial < day)
    j.flag(
      'rec.calendario.dataInicial',
      'rec.calendario.dataInicial é anterior à data de criação da recorrência.',
      dataInicial,
    );
  if (dataFinal !== undefined && !isCivilDate(dataFinal))
    j.flag(
      'rec.calendario.dataFinal',
      'O campo rec.calendario.dataFinal não respeita o schema (AAAA-MM-DD).',
      dataFinal,
    );
  else if (isCivilDate(dataFinal) && isCivilDate(dataInicial) && dataFinal < dataInicial) {
    j.flag('rec.calendario.dataFinal', 'rec.calendario.dataFinal é anterior a rec.calendario.dataInicial.', dataFinal);
  }
  if (!PERIODS.includes(periodicidade as string))
    j.flag(
      'rec.calendario.periodicidade',
      'periodicidade é SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL ou ANUAL.',
      periodicidade,
    );
  const valor = body['valor'];
  if (valor !== undefined) {
    if (!isObject(valor)) j.flag('rec.valor', 'O objeto rec.valor não respeita o schema.');
    else {
      const { valorRec, valorMinimoRecebedor } = valor;
      if (valorRec !== undefined && !isMoney(valorRec))
        j.flag('rec.valor.valorRec', 'valorRec não respeita o schema (\\d{1,10}\\.\\d{2}).', valorRec);
      if (valorMinimoRecebedor !== undefined && !isMoney(valorMinimoRecebedor)) {
        j.flag(
          'rec.valor.valorMinimoRecebedor',
          'valorMinimoRecebedor não respeita o schema (\\d{1,10}\\.\\d{2}).',
          valorMinimoRecebedor,
        );
      } else if (valorRec !== undefined && valorMinimoRecebedor !== undefined) {
        // The schema says it of valorMinimoRecebedor: not filled when the amount is fixed (valorRec).
        j.flag(
          'rec.valor.valorMinimoRecebedor',
          'Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão preenchidos.',
        );
      }
    }
  }
  const recebedor = body['recebedor'];
  if (recebedor !== undefined && !(isObject(recebedor) && optionalText(recebedor['convenio'], 60))) {
    j.flag('rec.recebedor', 'O objeto rec.recebedor não respeita o schema (convenio até 60).');
  }
  if (!POLICIES.includes(body['politicaRetentativa'] as string)) {
    j.flag(
      'rec.politicaRetentativa',
      'politicaRetentativa é NAO_PERMITE ou PERMITE_3R_7D.',
      body['politicaRetentativa'],
    );
  }
  if (body['loc'] !== undefined && !Number.isSafeInteger(body['loc']))
    j.flag('rec.loc', 'rec.loc é o id (inteiro) de uma location de recorrência.', body['loc']);
  if (body['ativacao'] !== undefined && !isActivation(body['ativacao'])) {
    j.flag('rec.ativacao.dadosJornada.txid', 'ativacao.dadosJornada.txid tem de 26 a 35 letras ou dígitos.');
  }
}

/** `PATCH /rec/{idRec}`: the fields of RecRevisada that are present; dataInicial against `createdDay`. */
export function judgeRecRevision(j: Judge, body: unknown, createdDay: string): void {
  if (!isObject(body)) return j.flag('rec', 'A revisão deve ser um objeto.');
  if (body['status'] !== undefined && body['status'] !== CANCELLED)
    j.flag('rec.status', 'O único status aceito é CANCELADA.', body['status']);
  const vinculo = body['vinculo'];
  if (vinculo !== undefined) {
    const devedor = isObject(vinculo) ? vinculo['devedor'] : undefined;
    const fine = isObject(vinculo) && (devedor === undefined || (isObject(devedor) && isText(devedor['nome'], 140)));
    if (!fine) j.flag('rec.vinculo', 'rec.vinculo.devedor.nome é obrigatório no devedor, até 140 caracteres.');
  }
  if (body['loc'] !== undefined && !Number.isSafeInteger(body['loc']))
    j.flag('rec.loc', 'rec.loc é o id (inteiro) de uma location de recorrência.', body['loc']);
  const calendario = body['calendario'];
  if (calendario !== undefined) {
    const dataInicial = isObject(calendario) ? calendario['dataInicial'] : undefined;
    if (!isObject(calendario) || (dataInicial !== undefined && !isCivilDate(dataInicial))) {
      j.flag(
        'rec.calendario.dataInicial',
        'O campo rec.calendario.dataInicial não respeita o schema (AAAA-MM-DD).',
        dataInicial,
      );
    } else if (isCivilDate(dataInicial) && dataInicial < createdDay) {
      j.flag(
        'rec.calendario.dataInicial',
        'rec.calendario.dataInicial é anterior à data de criação da recorrência.',
        dataInicial,
      );
    }
  }
  if (body['ativacao'] !== undefined && !isActivation(body['ativacao'])) {
    j.flag('rec.ativacao.dadosJornada.txid', 'ativacao.dadosJornada.txid tem de 26 a 35 letras ou dígitos.');
  }
}

/** `POST /solicrec`: schema rules and the expiry against the creation time `at` (ms). */
export function judgeSolicRec(j: Judge, body: unknown, at: number): void {
  if (!isObject(body)) return j.flag('solicrec', 'A solicitação deve ser um objeto.');
  if (typeof body['idRec'] !== 'string' || !ID29.test(body['idRec']))
    j.flag('solicrec.idRec', 'idRec tem 29 letras ou dígitos.', body['idRec']);
  const calendario = body['calendario'];
  const expiry = isObject(calendario) ? calendario['dataExpiracaoSolicitacao'] : undefined;
  if (!isRfc3339(expiry))
    j.flag(
      'solicrec.calendario',
      'O objeto solicrec.calendario não respeita o schema (dataExpiracaoSolicitacao RFC 3339).',
    );
  else if (Date.parse(expiry) < at) {
    j.flag(
      'solicrec.calendario.dataExpiracaoSolicitacao',
      'dataExpiracaoSolicitacao é anterior à criação da solicitação.',
      expiry,
    );
  }
  const destinatario = body['destinatario'];
  const fine =
    isObject(destinatario) &&
    isText(destinatario['conta'], 20) &&
    typeof destinatario['ispbParticipante'] === 'string' &&
    ISPB.test(destinatario['ispbParticipante']) &&
    optionalText(destinatario['agencia'], 4) &&
    isParty(destinatario, 0, false);
  if (!fine)
    j.flag(
      'solicrec.destinatario',
      'O objeto solicrec.destinatario não respeita o schema (conta até 20, ispbParticipante, agencia até 4, cpf ou cnpj).',
    );
}

const ADDRESS: ReadonlyArray<readonly [string, number]> = [
  ['logradouro', 200],
  ['cidade', 200],
  ['uf', 2],
  ['cep', 8],
];

/** True when `conta` and `agencia` (both absent or equal) name one of `accounts`. */
export function isOwnAccount(accounts: readonly OwnAccount[], conta: string, agencia: unknown): boolean {
  return accounts.some((account) => account.conta === conta && account.agencia === agencia);
}

/** `POST /cobr`, `PUT /cobr/{txid}`: schema rules, the due date against `day`, the account against `accounts`. */
export function judgeCobR(j: Judge, body: unknown, day: string, accounts: readonly OwnAccount[]): void {
  if (!isObject(body)) return j.flag('cobr', 'A cobrança recorrente deve ser um objeto.');
  if (typeof body['idRec'] !== 'string' || !ID29.test(body['idRec']))
    j.flag('cobr.idRec', 'idRec tem 29 letras ou dígitos.', body['idRec']);
  if (!optionalText(body['infoAdicional'], 140)) j.flag('cobr.infoAdicional', 'infoAdicional tem até 140 caracteres.');
  // The creation body has no status (appendix B, item 10): one of the charge's statuses respects
  // the field's schema and is ignored; any other value does not.
  if (body['status'] !== undefined && !COBR_STATUSES.includes(body['status'] as string)) {
    j.flag(
      'cobr.status',
      'cobr.status não respeita o schema (CRIADA, ATIVA, CONCLUIDA, EXPIRADA, REJEITADA ou CANCELADA).',
      body['status'],
    );
  }
  const calendario = body['calendario'];
  const due = isObject(calendario) ? calendario['dataDeVencimento'] : undefined;
  if (!isCivilDate(due))
    j.flag('cobr.calendario', 'O objeto cobr.calendario não respeita o schema (dataDeVencimento AAAA-MM-DD).');
  else if (due < day)
    j.flag('cobr.calendario.dataDeVencimento', 'dataDeVencimento é anterior à data de criação da cobrança.', due);
  const valor = body['valor'];
  if (!(isObject(valor) && isMoney(valor['original'])))
    j.flag('cobr.valor', 'O objeto cobr.valor não respeita o schema (original \\d{1,10}\\.\\d{2}).');
  if (body['ajusteDiaUtil'] !== undefined && typeof body['ajusteDiaUtil'] !== 'boolean')
    j.flag('cobr.ajusteDiaUtil', 'ajusteDiaUtil é true ou false.');
  const recebedor = body['recebedor'];
  if (
    !(
      isObject(recebedor) &&
      isText(recebedor['conta'], 20) &&
      ACCOUNT_TYPES.includes(recebedor['tipoConta'] as string) &&
      optionalText(recebedor['agencia'], 4)
    )
  ) {
    j.flag('cobr.recebedor', 'O objeto cobr.recebedor não respeita o schema (conta até 20, tipoConta, agencia até 4).');
  } else if (!isOwnAccount(accounts, recebedor['conta'] as string, recebedor['agencia'])) {
    j.flag(
      'cobr.recebedor.conta',
      'cobr.recebedor.conta e cobr.recebedor.agencia não são uma conta deste usuário recebedor.',
    );
  }
  const devedor = body['devedor'];
  if (devedor !== undefined) {
    const fine =
      isObject(devedor) &&
      optionalText(devedor['email'], Infinity) &&
      ADDRESS.every(([field, max]) => optionalText(devedor[field], max));
    if (!fine)
      j.flag(
        'cobr.devedor',
        'O objeto cobr.devedor não respeita o schema (email, logradouro e cidade até 200, uf até 2, cep até 8).',
      );
  }
}

/** The content a recurring charge keeps from its creation body. */
export function cobrContent(body: Json): Json {
  const out: Json = {};
  for (const field of ['infoAdicional', 'calendario', 'valor', 'ajusteDiaUtil', 'recebedor', 'devedor']) {
    if (body[field] !== undefined) out[field] = structuredClone(body[field]);
  }
  const calendario = out['calendario'] as Json;
  out['calendario'] = { dataDeVencimento: calendario['dataDeVencimento'] };
  out['ajusteDiaUtil'] ??= true;
  return out;
}
