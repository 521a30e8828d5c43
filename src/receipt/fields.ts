/**
 * What a receipt says, as lines of text: pure, so the PDF layout (`pdf.ts`) only places them.
 * Money stays a decimal string turned into integer cents; times are shown in Brasília; a payer's
 * CPF is masked the way the standard's receipts mask it (`***.456.789-**`), a CNPJ is shown whole
 * (a company's number is public).
 */
import type { Devolucao, DevolucaoNatureza, InstantPayment } from '../collection/instant.ts';
import { ConfigurationError } from '../errors/failures.ts';
import { isRecord } from '../internal/json.ts';
import { isValidE2eid } from '../lib/ids.ts';
import { isValidAmount, toCents } from '../lib/money.ts';

/** A person or company on a receipt, named as the records name them. */
export interface ReceiptParty {
  nome: string;
  /** 11 digits; printed masked, `***.456.789-**`. */
  cpf?: string;
  /** 14 characters; printed whole, `11.222.333/0001-81`. */
  cnpj?: string;
}

/** Options of `receipt()`. */
export interface ReceiptOptions {
  /**
   * A receipt of this refund of the payment rather than of the payment: its id (one of
   * `payment.devolucoes`) or the refund record itself (as `api.instant.refund()` answers it).
   */
  refund?: string | Devolucao;
  /** The receiver (you), printed as given; without it the receipt names the receiving key only. */
  merchant?: ReceiptParty;
}

/** One labelled line of a receipt. */
export interface ReceiptLine {
  label: string;
  value: string;
}

/** A receipt's text, top to bottom. */
export interface ReceiptText {
  title: string;
  lines: ReceiptLine[];
  /** Sections after the main lines (payer, receiver, refund). */
  sections: { heading: string; lines: ReceiptLine[] }[];
  /** What the QR code holds: the end-to-end id. */
  qr: string;
}

const NATURES: Record<string, string> = {
  ORIGINAL: 'Devolução do valor original',
  RETIRADA: 'Devolução de saque ou troco',
  MED_OPERACIONAL: 'Devolução por falha operacional (mecanismo especial)',
  MED_FRAUDE: 'Devolução por fundada suspeita de fraude (mecanismo especial)',
};

/** The text of the receipt of `payment`, or of one of its refunds; throws `ConfigurationError` for a record it cannot print. */
export function receiptText(payment: InstantPayment, options: ReceiptOptions = {}): ReceiptText {
  if (!isRecord(payment) || !isValidE2eid(payment.endToEndId))
    throw new ConfigurationError('payment', 'payment must be a received-payment record with its endToEndId');
  const refund = refundOf(payment, options.refund);
  const amount = refund?.valor ?? payment.valor;
  const time = refund === undefined ? payment.horario : (refund.horario.liquidacao ?? refund.horario.solicitacao);
  const lines: ReceiptLine[] = [
    { label: 'Valor', value: reais(amount, refund === undefined ? 'payment.valor' : 'refund.valor') },
    { label: 'Data e hora (Brasília)', value: brasiliaDateTime(time) },
    { label: 'ID fim a fim (E2E)', value: payment.endToEndId },
    { label: 'txid', value: payment.txid ?? 'sem txid' },
  ];
  if (typeof payment.infoPagador === 'string' && refund === undefined)
    lines.push({ label: 'Mensagem do pagador', value: payment.infoPagador });
  const sections = [
    { heading: 'Pagador', lines: partyLines(party(payment['pagador'])) },
    { heading: 'Recebedor', lines: receiverLines(options.merchant, payment.chave) },
  ];
  if (refund !== undefined) sections.push({ heading: 'Devolução', lines: refundLines(refund, payment) });
  return {
    title: refund === undefined ? 'Comprovante de pagamento recebido' : 'Comprovante de devolução',
    lines,
    sections,
    qr: payment.endToEndId,
  };
}

function refundOf(payment: InstantPayment, refund: ReceiptOptions['refund']): Devolucao | undefined {
  if (refund === undefined) return undefined;
  if (typeof refund !== 'string') {
    if (!isRecord(refund) || typeof refund.id !== 'string')
      throw new ConfigurationError('refund', 'refund must be a refund id or a refund record');
    return refund;
  }
  const found = payment.devolucoes?.find((d) => d.id === refund);
  if (found === undefined) throw new ConfigurationError('refund', 'the payment has no refund with this id');
  return found;
}

function refundLines(refund: Devolucao, payment: InstantPayment): ReceiptLine[] {
  const nature: DevolucaoNatureza = refund.natureza ?? 'ORIGINAL';
  const lines = [
    { label: 'Natureza', value: `${NATURES[nature] ?? 'Devolução'} (${nature})` },
    { label: 'Identificador da devolução', value: refund.id },
    { label: 'ID de retorno (rtrId)', value: refund.rtrId },
    { label: 'Situação', value: refund.status },
    { label: 'Valor do pagamento', value: reais(payment.valor, 'payment.valor') },
  ];
  if (typeof refund.descricao === 'string') lines.push({ label: 'Descrição', value: refund.descricao });
  return lines;
}

function party(value: unknown): ReceiptParty | undefined {
  if (!isRecord(value) || typeof value['nome'] !== 'string') return undefined;
  const out: ReceiptParty = { nome: value['nome'] };
  if (typeof value['cpf'] === 'string') out.cpf = value['cpf'];
  if (typeof value['cnpj'] === 'string') out.cnpj = value['cnpj'];
  return out;
}

function partyLines(who: ReceiptParty | undefined): ReceiptLine[] {
  if (who === undefined) return [{ label: 'Nome', value: 'não informado no registro' }];
  const lines = [{ label: 'Nome', value: who.nome }];
  if (who.cpf !== undefined) lines.push({ label: 'CPF', value: maskCpf(who.cpf) });
  if (who.cnpj !== undefined) lines.push({ label: 'CNPJ', value: formatCnpj(who.cnpj) });
  return lines;
}

function receiverLines(merchant: ReceiptParty | undefined, key: string | undefined): ReceiptLine[] {
  const lines = merchant === undefined ? [] : partyLines(party(merchant));
  if (key !== undefined) lines.push({ label: 'Chave', value: key });
  return lines.length > 0 ? lines : partyLines(undefined);
}

/** `12345678909` → `***.456.789-**`: the middle six digits, as the standard's receipts show a CPF. */
export function maskCpf(cpf: string): string {
  const digits = cpf.replace(/\D/g, '');
  if (digits.length !== 11) return '***.***.***-**';
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

function formatCnpj(cnpj: string): string {
  const s = cnpj.replace(/[./-]/g, '');
  if (!/^[0-9A-Z]{12}\d{2}$/.test(s)) return cnpj;
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

/** `"1234.50"` → `R$ 1.234,50`, through integer cents. */
function reais(amount: unknown, field: string): string {
  if (!isValidAmount(amount)) throw new ConfigurationError(field, `${field} must be an amount such as "10.00"`);
  const cents = String(toCents(amount)).padStart(3, '0');
  const whole = cents.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, '.');
  return `R$ ${whole},${cents.slice(-2)}`;
}

// Named here rather than exported from lib/dates.ts: that module sits in the chunk the payer entry loads.
const TIME_ZONE = 'America/Sao_Paulo';
let brasilia: Intl.DateTimeFormat | undefined;

/** An RFC 3339 instant as `29/11/2026 21:05:03` in Brasília. */
function brasiliaDateTime(instant: string | undefined): string {
  const date = new Date(instant ?? Number.NaN);
  if (Number.isNaN(date.getTime())) return 'não informada';
  brasilia ??= new Intl.DateTimeFormat('pt-BR', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const part = Object.fromEntries(brasilia.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part['day']}/${part['month']}/${part['year']} ${part['hour']}:${part['minute']}:${part['second']}`;
}
