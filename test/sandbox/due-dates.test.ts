/**
 * Due dates to the day in the sandbox: a due date on a weekend or holiday rolls to the payer's
 * next business day, `DPP` is accepted through the rolled last payable day (the official examples
 * A–G), business-day modalities count business days, and for seeded random charges and days the
 * payload's `valor` is what `amountDue` computes. The clock is fixed (only `Date` is faked).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CobPayloadNaoEncontrado,
  CobPayloadOperacaoInvalida,
  ConfigurationError,
  amountDue,
  type CobVSolicitada,
} from '../../src/index.ts';
import { addDays } from '../../src/lib/dates.ts';
import { generateTxid } from '../../src/lib/ids.ts';
import { PayerClient } from '../../src/payer.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { OFFICIAL_EXAMPLES } from '../support/due-dates.ts';
import { seededRandom } from '../support/random.ts';
import { CPF, useSandbox } from './support.ts';

const RIO = '3304557';
// January 20 (São Sebastião) in one municipality.
const localHolidays = (codMun: string) => (codMun === RIO ? ['01-20'] : []);
const s = useSandbox({ localHolidays });
let payer: PayerClient;

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-12-01T15:00:00Z'));
  payer = new PayerClient({ ...s.sandbox.payerOptions(), maxRetries: 0 });
});
afterAll(() => {
  vi.useRealTimers();
});

type Valor = CobVSolicitada['valor'];
async function cobv(
  dataDeVencimento: string,
  validadeAposVencimento: number,
  valor: Valor = { original: '100.00' },
): Promise<string> {
  const created = await s.api.cobv.create(generateTxid(), {
    calendario: { dataDeVencimento, validadeAposVencimento },
    devedor: { cpf: CPF, nome: 'Fulano de Tal' },
    valor,
    chave: s.key,
  });
  return created.location!;
}

describe('the sandbox rolls due dates', () => {
  it("accepts example B's Monday: due Friday 2026-12-25 (Christmas) with 0 days, DPP 2026-12-28; refuses the 29th", async () => {
    const location = await cobv('2026-12-25', 0);
    for (const day of ['2026-12-25', '2026-12-26', '2026-12-27', '2026-12-28']) {
      await expect(payer.cobPayload.getCobv(location, { DPP: day }), day).resolves.toMatchObject({
        valor: { final: '100.00' },
      });
    }
    await expect(payer.cobPayload.getCobv(location, { DPP: '2026-12-29' })).rejects.toBeInstanceOf(
      CobPayloadOperacaoInvalida,
    );
  });

  it('rolls a Good Friday due date to Monday: payable then, without fine', async () => {
    const location = await cobv('2027-03-26', 0, { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' } });
    await expect(payer.cobPayload.getCobv(location, { DPP: '2027-03-29' })).resolves.toMatchObject({
      valor: { multa: '0.00', final: '100.00' },
    });
    await expect(payer.cobPayload.getCobv(location, { DPP: '2027-03-30' })).rejects.toBeInstanceOf(
      CobPayloadOperacaoInvalida,
    );
  });

  it('counts business-day interest across a holiday: due Tuesday 2027-04-20, paid Thursday after Tiradentes', async () => {
    const valor = (modalidade: 2 | 6): Valor => ({ original: '100.00', juros: { modalidade, valorPerc: '1.00' } });
    const business = await payer.cobPayload.getCobv(await cobv('2027-04-20', 5, valor(6)), { DPP: '2027-04-22' });
    expect(business.valor).toMatchObject({ juros: '1.00', final: '101.00' });
    const calendar = await payer.cobPayload.getCobv(await cobv('2027-04-20', 5, valor(2)), { DPP: '2027-04-22' });
    expect(calendar.valor).toMatchObject({ juros: '2.00', final: '102.00' });
  });

  it("rolls past the payer's local holidays (localHolidays, by codMun)", async () => {
    const location = await cobv('2027-01-20', 0);
    await expect(payer.cobPayload.getCobv(location, { DPP: '2027-01-21', codMun: RIO })).resolves.toMatchObject({
      valor: { final: '100.00' },
    });
    await expect(payer.cobPayload.getCobv(location, { DPP: '2027-01-21', codMun: '3550308' })).rejects.toBeInstanceOf(
      CobPayloadOperacaoInvalida,
    );
    // Without codMun the service assumes no local holiday.
    await expect(payer.cobPayload.getCobv(location, { DPP: '2027-01-21' })).rejects.toBeInstanceOf(
      CobPayloadOperacaoInvalida,
    );
  });

  it("keeps a charge open on the day a payer's local holiday adds, for that payer only", async () => {
    const location = await cobv('2027-01-20', 0);
    vi.setSystemTime(new Date('2027-01-21T15:00:00Z'));
    try {
      await expect(payer.cobPayload.getCobv(location, { codMun: RIO })).resolves.toMatchObject({
        valor: { final: '100.00' },
      });
      await expect(payer.cobPayload.getCobv(location, { codMun: '3550308' })).rejects.toBeInstanceOf(
        CobPayloadNaoEncontrado,
      );
    } finally {
      vi.setSystemTime(new Date('2026-12-01T15:00:00Z'));
    }
  });

  it("prices with its own code: no file of src/sandbox imports the client's amountDue (only the shared calendar)", () => {
    const dir = new URL('../../src/sandbox/', import.meta.url);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => readFileSync(new URL(f, dir), 'utf8').includes('amount-due'))).toEqual([]);
  });

  it('refuses local holidays that are not dates', () => {
    expect(() => createSandbox({ localHolidays: ['20/01'] })).toThrow(ConfigurationError);
  });

  it.each(OFFICIAL_EXAMPLES)(
    'official example $name: every day listed accepted, the next refused',
    async ({ due, validade, last, refused }) => {
      vi.setSystemTime(new Date(`${due.slice(0, 7)}-01T15:00:00Z`));
      try {
        const location = await cobv(due, validade);
        for (let day: string = due; day <= last; day = addDays(day, 1)) {
          await expect(payer.cobPayload.getCobv(location, { DPP: day }), day).resolves.toMatchObject({
            valor: { final: '100.00' },
          });
        }
        if (refused)
          await expect(payer.cobPayload.getCobv(location, { DPP: refused })).rejects.toBeInstanceOf(
            CobPayloadOperacaoInvalida,
          );
      } finally {
        vi.setSystemTime(new Date('2026-12-01T15:00:00Z'));
      }
    },
  );
});

describe('parity: the payload of seeded random charges and days is what amountDue computes', () => {
  const random = seededRandom(2027);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const money = (min: number, max: number) => (int(min, max) / 100).toFixed(2);
  const today = '2026-12-01';

  function randomValor(due: string): Valor {
    const originalCents = int(100, 100_000);
    const valor: Valor = { original: (originalCents / 100).toFixed(2) };
    if (random() < 0.5)
      valor.multa =
        random() < 0.5 ? { modalidade: 1, valorPerc: money(1, 5000) } : { modalidade: 2, valorPerc: money(1, 1000) };
    if (random() < 0.6) valor.juros = { modalidade: int(1, 8) as 1, valorPerc: money(1, 500) };
    if (random() < 0.3)
      valor.abatimento =
        random() < 0.5
          ? { modalidade: 1, valorPerc: money(1, Math.floor(originalCents / 3)) }
          : { modalidade: 2, valorPerc: money(1, 3000) };
    if (random() < 0.6) {
      const modalidade = int(1, 6);
      if (modalidade <= 2) {
        const dates = [
          ...new Set(
            Array.from({ length: int(1, 3) }, () =>
              addDays(today, int(0, Math.max(0, (Date.parse(due) - Date.parse(today)) / 86_400_000))),
            ),
          ),
        ];
        const value = () => (modalidade === 1 ? money(1, Math.floor(originalCents / 3)) : money(1, 3000));
        valor.desconto = {
          modalidade: modalidade as 1,
          descontoDataFixa: dates.map((data) => ({ data, valorPerc: value() })),
        };
      } else {
        valor.desconto = { modalidade: modalidade as 3, valorPerc: modalidade <= 4 ? money(1, 200) : money(1, 100) };
      }
    }
    return valor;
  }

  it('fixed discount dates that roll to the same business day: the earliest counts, as in amountDue', async () => {
    // Saturday 2026-12-05 and Sunday 2026-12-06 both roll to Monday 2026-12-07; listed Sunday first.
    const valor: Valor = {
      original: '100.00',
      desconto: {
        modalidade: 1,
        descontoDataFixa: [
          { data: '2026-12-06', valorPerc: '4.00' },
          { data: '2026-12-05', valorPerc: '5.00' },
        ],
      },
    };
    const payload = await payer.cobPayload.getCobv(await cobv('2026-12-21', 0, valor), { DPP: '2026-12-07' });
    expect(payload.valor).toEqual({ original: '100.00', desconto: '5.00', final: '95.00' });
    const charge = { calendario: { dataDeVencimento: '2026-12-21', validadeAposVencimento: 0 }, valor };
    expect(amountDue(charge, '2026-12-07').valor).toEqual(payload.valor);
  });

  it('40 charges, a random payable day each, with and without a local calendar', async () => {
    for (let i = 0; i < 40; i++) {
      const due = addDays(today, int(0, 90));
      const validade = int(0, 20);
      const valor = randomValor(due);
      const codMun = random() < 0.5 ? RIO : undefined;
      const charge = { calendario: { dataDeVencimento: due, validadeAposVencimento: validade }, valor };
      const { lastPayableDay } = amountDue(charge, today, { codMun, localHolidays });
      const day = addDays(today, int(0, (Date.parse(lastPayableDay) - Date.parse(today)) / 86_400_000));
      const payload = await payer.cobPayload.getCobv(
        await cobv(due, validade, valor),
        codMun === undefined ? { DPP: day } : { DPP: day, codMun },
      );
      expect(payload.valor, JSON.stringify({ charge, day, codMun })).toEqual(
        amountDue(charge, day, { codMun, localHolidays }).valor,
      );
    }
  });
});
