/**
 * `receipt()` read back as a person's PDF reader would: the text through a PDF text extractor
 * (unpdf, PDF.js inside), the page rendered to an image (PDF.js on a canvas) and its QR code
 * decoded by jsQR. Nothing here shares code with the writer.
 */
import { extractText, getDocumentProxy, renderPageAsImage } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { Devolucao, InstantPayment } from '../../src/collection/instant.ts';
import { ConfigurationError, receipt } from '../../src/index.ts';
import { maskCpf } from '../../src/receipt/fields.ts';
import { receipt as webReceipt } from '../../src/receipt/receipt.web.ts';
import { readPng, readQr } from '../support/qr-read.ts';

const E2EID = 'E99999999202611290230a1B2c3D4e5F';
const REFUND: Devolucao = {
  id: 'devolucao1',
  rtrId: 'D99999999202611290300z9Y8x7W6v5U',
  valor: '10.00',
  natureza: 'RETIRADA',
  descricao: 'Troco não entregue',
  horario: { solicitacao: '2026-11-29T02:59:00.000Z', liquidacao: '2026-11-29T03:00:05.000Z' },
  status: 'DEVOLVIDO',
};
const PAYMENT: InstantPayment = {
  endToEndId: E2EID,
  txid: 'k4M9tRq2ZbX7nL1pV8sW3cY6dF0hJ5gA',
  valor: '1234.56',
  // 02:30 UTC on the 29th is still the 28th in Brasília.
  horario: '2026-11-29T02:30:07.000Z',
  chave: 'loja@example.com',
  infoPagador: 'Pedido nº 42',
  // Not in the spec's schema: services that name the payer add it, and it passes through.
  pagador: { nome: 'João da Conceição Araújo', cpf: '12345678909' },
  devolucoes: [REFUND],
};
const MERCHANT = { nome: 'Padaria São Jorge Ltda', cnpj: '11222333000181' };

/** The page count and the text, runs of white space (line ends, wrapped values) as one space. */
async function read(pdf: Uint8Array): Promise<{ pages: number; text: string }> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(doc, { mergePages: true });
  return { pages: totalPages, text: text.replace(/\s+/g, ' ') };
}

/** The page as PDF.js paints it, then the QR code jsQR finds on it. */
async function qrOnPage(pdf: Uint8Array): Promise<string | undefined> {
  const png = await renderPageAsImage(new Uint8Array(pdf), 1, {
    canvasImport: () => import('@napi-rs/canvas'),
    scale: 2,
  });
  return readQr(readPng(new Uint8Array(png)));
}

describe('receipt(payment)', () => {
  it('is one page whose text holds every field: amount, Brasília date and time, e2eid, txid, payer, receiver', async () => {
    const pdf = await receipt(PAYMENT, { merchant: MERCHANT });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const { pages, text } = await read(pdf);
    expect(pages).toBe(1);
    for (const line of [
      'Comprovante de pagamento recebido',
      'Valor R$ 1.234,56',
      'Data e hora (Brasília) 28/11/2026 23:30:07',
      `ID fim a fim (E2E) ${E2EID}`,
      `txid ${PAYMENT.txid}`,
      'Mensagem do pagador Pedido nº 42',
      'Nome João da Conceição Araújo',
      'CPF ***.456.789-**',
      'Nome Padaria São Jorge Ltda',
      'CNPJ 11.222.333/0001-81',
      'Chave loja@example.com',
    ])
      expect(text).toContain(line);
  });

  it("masks the payer's CPF everywhere in the file, as the standard's receipts do", async () => {
    const pdf = await receipt(PAYMENT, { merchant: MERCHANT });
    const { text } = await read(pdf);
    const bytes = Buffer.from(pdf).toString('latin1');
    for (const whole of ['12345678909', '123.456.789-09', '123456789']) {
      expect(text).not.toContain(whole);
      expect(bytes).not.toContain(whole);
    }
    expect(maskCpf('123.456.789-09')).toBe('***.456.789-**');
    expect(maskCpf('123')).toBe('***.***.***-**');
  });

  it('embeds its fonts, so accented names print on any reader', async () => {
    const doc = await getDocumentProxy(new Uint8Array(await receipt(PAYMENT)));
    const page = await doc.getPage(1);
    await page.getOperatorList();
    const { styles } = await page.getTextContent();
    const fonts = Object.keys(styles).map((id) => page.commonObjs.get(id) as { name: string; missingFile: boolean });
    expect(fonts.map((f) => f.name.replace(/-\d+$/, '')).sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    // PDF.js found each font's file in the document (it falls back to a system font otherwise).
    expect(fonts.every((f) => !f.missingFile)).toBe(true);
  });

  it('carries a QR code of the end-to-end id that reads back from the rendered page', async () => {
    expect(await qrOnPage(await receipt(PAYMENT, { merchant: MERCHANT }))).toBe(E2EID);
  });

  it('says so when the record names no payer, and names the receiver by its key without `merchant`', async () => {
    const { pagador: _, ...bare } = PAYMENT;
    const { text } = await read(await receipt(bare));
    expect(text).toContain('Pagador Nome não informado no registro');
    expect(text).toMatch(/Recebedor Chave loja@example\.com/);
    expect(text).not.toContain('Padaria');
  });

  it('is the same file for the same record (no clock inside)', async () => {
    expect(Buffer.from(await receipt(PAYMENT))).toEqual(Buffer.from(await receipt(PAYMENT)));
  });

  it('keeps a very long name on the page, wrapped', async () => {
    const nome = `Empresa ${'Muito '.repeat(30)}Comprida Ltda`;
    const { pages, text } = await read(await receipt(PAYMENT, { merchant: { nome } }));
    expect(pages).toBe(1);
    expect(text).toContain(nome);
  });
});

describe('receipt(payment, { refund })', () => {
  it("is the refund's receipt: its amount and time, its nature, ids, and the payment it returns", async () => {
    for (const refund of ['devolucao1', REFUND]) {
      const pdf = await receipt(PAYMENT, { refund, merchant: MERCHANT });
      const { pages, text } = await read(pdf);
      expect(pages).toBe(1);
      for (const line of [
        'Comprovante de devolução',
        'Valor R$ 10,00',
        'Data e hora (Brasília) 29/11/2026 00:00:05',
        `ID fim a fim (E2E) ${E2EID}`,
        'Natureza Devolução de saque ou troco (RETIRADA)',
        'Identificador da devolução devolucao1',
        `ID de retorno (rtrId) ${REFUND.rtrId}`,
        'Situação DEVOLVIDO',
        'Valor do pagamento R$ 1.234,56',
        'Descrição Troco não entregue',
        'CPF ***.456.789-**',
      ])
        expect(text).toContain(line);
      expect(text).not.toContain('Mensagem do pagador');
      expect(await qrOnPage(pdf)).toBe(E2EID);
    }
  });

  it('names the special-mechanism natures, and ORIGINAL when the record gives none', async () => {
    const fraud = { ...REFUND, natureza: 'MED_FRAUDE' };
    expect((await read(await receipt(PAYMENT, { refund: fraud }))).text).toContain(
      'Natureza Devolução por fundada suspeita de fraude (mecanismo especial) (MED_FRAUDE)',
    );
    const { natureza: _, ...plain } = REFUND;
    expect((await read(await receipt(PAYMENT, { refund: plain }))).text).toContain(
      'Natureza Devolução do valor original (ORIGINAL)',
    );
  });
});

describe('receipt() refusals', () => {
  it.each([
    ['an unknown refund id', PAYMENT, { refund: 'nope' }, 'refund'],
    ['a record without an e2eid', { ...PAYMENT, endToEndId: 'x' }, {}, 'payment'],
    ['an amount as a float', { ...PAYMENT, valor: 10.5 }, {}, 'payment.valor'],
    ['an amount with a comma', { ...PAYMENT, valor: '10,50' }, {}, 'payment.valor'],
    ['a refund amount that is not money', PAYMENT, { refund: { ...REFUND, valor: '-1.00' } }, 'refund.valor'],
  ] as const)('rejects %s with ConfigurationError naming the field', async (_, payment, options, option) => {
    const error = await receipt(payment as unknown as InstantPayment, options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option });
  });
});

describe('receipt() in the web build', () => {
  it('rejects with ConfigurationError: Workers, edge and browser bundles carry no PDF library', async () => {
    await expect(webReceipt(PAYMENT)).rejects.toMatchObject({ name: 'ConfigurationError', option: 'receipt' });
  });
});
