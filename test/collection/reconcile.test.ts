import { describe, expect, it } from 'vitest';
import { reconcilePayment, type CobCompleta, type CobVCompleta, type InstantPayment } from '../../src/index.ts';

const payment = (valor: string, horario: string): InstantPayment => ({
  endToEndId: 'E12345678202603161200abcdefghijk',
  txid: 'reconcile000000000000000001',
  valor,
  horario,
});

const cob = (valor: CobCompleta['valor']): CobCompleta => ({
  txid: 'reconcile000000000000000001',
  calendario: { criacao: '2026-03-16T12:00:00Z', expiracao: 3600 },
  revisao: 0,
  status: 'CONCLUIDA',
  valor,
  chave: 'a@example.com',
});

// Due Saturday 2026-03-14 (rolled to Monday the 16th): 2 % fine and 1 % a day after it,
// 5.00 off through Tuesday the 10th.
const cobv: CobVCompleta = {
  txid: 'reconcile000000000000000002',
  calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: '2026-03-14', validadeAposVencimento: 5 },
  revisao: 0,
  status: 'CONCLUIDA',
  devedor: { cpf: '12345678909', nome: 'Fulano de Tal' },
  recebedor: {
    cnpj: '11222333000181',
    nome: 'Loja',
    logradouro: 'Rua 1',
    cidade: 'Brasília',
    uf: 'DF',
    cep: '70000000',
  },
  valor: {
    original: '100.00',
    multa: { modalidade: 2, valorPerc: '2.00' },
    juros: { modalidade: 2, valorPerc: '1.00' },
    desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-03-10', valorPerc: '5.00' }] },
  },
  chave: 'a@example.com',
};

describe('reconcilePayment', () => {
  it('an immediate charge: full, short, over', () => {
    const charge = cob({ original: '25.00' });
    expect(reconcilePayment(payment('25.00', '2026-03-16T12:00:00Z'), charge)).toEqual({
      status: 'full',
      due: '25.00',
      paid: '25.00',
      difference: '0.00',
      date: '2026-03-16',
      payable: true,
    });
    expect(reconcilePayment(payment('24.50', '2026-03-16T12:00:00Z'), charge)).toMatchObject({
      status: 'short',
      difference: '-0.50',
    });
    expect(reconcilePayment(payment('30.00', '2026-03-16T12:00:00Z'), charge)).toMatchObject({
      status: 'over',
      difference: '5.00',
    });
  });

  it('an immediate charge with change (troco): the amount plus the change', () => {
    const charge = cob({
      original: '20.00',
      retirada: { troco: { valor: '50.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '12345678' } },
    });
    expect(reconcilePayment(payment('70.00', '2026-03-16T12:00:00Z'), charge)).toMatchObject({
      status: 'full',
      due: '70.00',
    });
  });

  it('a due-date charge paid early with its discount, on the rolled due date, and late with fine and interest', () => {
    expect(reconcilePayment(payment('95.00', '2026-03-10T15:00:00Z'), cobv)).toMatchObject({
      status: 'full',
      due: '95.00',
      payable: true,
    });
    // Paid on the Saturday due date or the Monday it rolled to: the original, no fine.
    expect(reconcilePayment(payment('100.00', '2026-03-14T15:00:00Z'), cobv)).toMatchObject({
      status: 'full',
      due: '100.00',
    });
    expect(reconcilePayment(payment('100.00', '2026-03-16T15:00:00Z'), cobv)).toMatchObject({
      status: 'full',
      due: '100.00',
    });
    // Wednesday the 18th: 2.00 fine, 2 days of 1 %.
    const late = reconcilePayment(payment('100.00', '2026-03-18T15:00:00Z'), cobv);
    expect(late).toEqual({
      status: 'short',
      due: '104.00',
      paid: '100.00',
      difference: '-4.00',
      date: '2026-03-18',
      payable: true,
      valor: { original: '100.00', multa: '2.00', juros: '2.00', desconto: '0.00', final: '104.00' },
    });
    expect(reconcilePayment(payment('104.50', '2026-03-18T15:00:00Z'), cobv)).toMatchObject({
      status: 'over',
      difference: '0.50',
    });
  });

  it('dates the payment in Brasília: 02:30 UTC on the 17th is still the 16th there', () => {
    expect(reconcilePayment(payment('100.00', '2026-03-17T02:30:00Z'), cobv)).toMatchObject({
      date: '2026-03-16',
      status: 'full',
    });
  });

  it('says when a due-date charge was paid after its last payable day', () => {
    // Last payable day: the 16th + 5 days = Saturday the 21st, rolled to Monday the 23rd.
    expect(reconcilePayment(payment('109.00', '2026-03-23T15:00:00Z'), cobv)).toMatchObject({
      payable: true,
      status: 'full',
    });
    expect(reconcilePayment(payment('110.00', '2026-03-24T15:00:00Z'), cobv)).toMatchObject({
      payable: false,
      due: '110.00',
    });
  });

  it("uses the payer's local calendar when given", () => {
    const { desconto: _, ...valor } = cobv.valor;
    const local = { ...cobv, calendario: { ...cobv.calendario, dataDeVencimento: '2026-01-20' }, valor };
    const options = { localHolidays: ['01-20'] };
    expect(reconcilePayment(payment('100.00', '2026-01-21T15:00:00Z'), local, options)).toMatchObject({
      status: 'full',
    });
    expect(reconcilePayment(payment('100.00', '2026-01-21T15:00:00Z'), local)).toMatchObject({
      status: 'short',
      due: '103.00',
    });
  });
});
