/**
 * The payer page (examples/payer-page/) in a real headless Chromium: bundled by esbuild for the
 * browser, served from its own port on 127.0.0.1, reading charges from a listening sandbox on
 * another port (so every payload and key-set request is cross-origin and goes through CORS).
 * One browser for the file; the browser, both servers and the sandbox are closed even when a
 * test fails. Never skipped: a Chromium that cannot launch fails the file with the reason.
 */
import jsQRModule from 'jsqr';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstantClient, addDays, brcode, generateTxid, todayInBrasilia } from '../../src/index.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { PAGE_SETTLED, payerPageUrl, servePayerPage, type PayerPageServer } from '../../examples/payer-page/serve.ts';
import { launchChromium, type TestBrowser } from '../support/chromium.ts';

// jsQR is CommonJS: its function is the module and its `default`.
const jsQR = jsQRModule.default;
const sandbox = createSandbox();
const closers: Array<() => Promise<void>> = [];
let chromium: Promise<TestBrowser>;
let site: PayerPageServer;
let api: InstantClient;
let key: string;

beforeAll(async () => {
  await sandbox.listen({ port: 0 });
  closers.push(() => sandbox.close());
  site = await servePayerPage();
  closers.push(() => site.close());
  // A Chromium that cannot launch fails every test below with the reason: never a skip.
  chromium = launchChromium();
  const launched = await chromium.catch(() => undefined);
  if (launched) closers.push(() => launched.close());
  api = new InstantClient(sandbox.clientOptions());
  key = sandbox.ownKeys[0]!;
}, 120_000); // the first run on a machine inflates the Chromium binary (a few seconds)

afterAll(async () => {
  // Browser first, then the servers it was connected to; every one is closed even if one fails.
  const failures: unknown[] = [];
  for (const close of closers.reverse()) await close().catch((error: unknown) => failures.push(error));
  if (failures.length > 0) throw new AggregateError(failures, 'closing the browser test fixtures failed');
});

interface Shown {
  state: string | undefined;
  status: string;
  fields: Record<string, string>;
  brcode: string;
  error: { name: string; message: string } | undefined;
  /** What the QR image shown reads as (decoded in Node from the page's pixels), if one is shown. */
  qr: string | undefined;
  /** Every answer the page received other than its own files. */
  responses: Array<{ url: string; status: number; allowOrigin: string | undefined }>;
  /** Uncaught errors and console errors (a CORS refusal is logged there). */
  pageErrors: string[];
}

/** Opens the page at `url`, waits until it has shown a result, and reads what it shows. */
async function visit(url: string, intercept?: (request: HTTPRequest) => Promise<void>): Promise<Shown> {
  const page: Page = await (await chromium).browser.newPage();
  try {
    const pageErrors: string[] = [];
    const responses: Shown['responses'] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => void (message.type() === 'error' && pageErrors.push(message.text())));
    page.on('response', (response) => {
      // Not the page's own files, nor the QR image it made itself (a blob: URL).
      if (!response.url().startsWith(site.url) && !response.url().startsWith('blob:')) {
        responses.push({
          url: response.url(),
          status: response.status(),
          allowOrigin: response.headers()['access-control-allow-origin'],
        });
      }
    });
    if (intercept) {
      await page.setRequestInterception(true);
      page.on('request', (request) => void intercept(request));
    }
    await page.goto(url);
    await page.waitForSelector(PAGE_SETTLED, { timeout: 10_000 });
    const shown = await page.evaluate(() => {
      const text = (id: string) => document.getElementById(id)?.textContent ?? '';
      const status = document.getElementById('status');
      const fields = Object.fromEntries(
        [...document.querySelectorAll<HTMLElement>('#charge:not([hidden]) dd')].map((dd) => [
          dd.dataset['field'] ?? '',
          dd.textContent ?? '',
        ]),
      );
      const errorShown = document.getElementById('error')?.hidden === false;
      const payShown = document.getElementById('pay')?.hidden === false;
      // The QR image as the browser decoded it: its pixels, read through a canvas.
      const image = document.getElementById('qr') as HTMLImageElement | null;
      let pixels: { width: number; height: number; rgba: number[] } | undefined;
      if (payShown && image?.complete && image.naturalWidth > 0) {
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
        pixels = { width: canvas.width, height: canvas.height, rgba: [...data] };
      }
      return {
        pixels,
        state: status?.dataset['state'],
        status: status?.textContent ?? '',
        fields,
        brcode: payShown ? text('brcode') : '',
        error: errorShown ? { name: text('error-name'), message: text('error-message') } : undefined,
      };
    });
    const { pixels, ...rest } = shown;
    const qr = pixels && jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height)?.data;
    return { ...rest, qr, responses, pageErrors };
  } finally {
    await page.close();
  }
}

async function createCob(amount: string) {
  const cob = await api.cob.create(generateTxid(), {
    calendario: { expiracao: 600 },
    valor: { original: amount },
    chave: key,
    solicitacaoPagador: 'Order 42',
  });
  const code = cob.instantCopiaECola!;
  return { txid: cob.txid, code, payloadPath: new URL(`http://${brcode.parse(code).url!}`).pathname };
}

describe('the payer page in headless Chromium', () => {
  it('launched the Chromium that @sparticuz/chromium ships', async () => {
    expect((await chromium).version).toMatch(/^HeadlessChrome\/\d+\./);
  });

  it('fetches the payload cross-origin from the sandbox, verifies its signature and shows the charge', async () => {
    const { txid, code, payloadPath } = await createCob('25.90');
    const shown = await visit(payerPageUrl(site.url, code, sandbox.origin));

    expect(shown.pageErrors).toEqual([]);
    expect(shown.error).toBeUndefined();
    expect(shown.state).toBe('verified');
    expect(shown.status).toBe(`Signature verified (key set of ${new URL(sandbox.origin).host})`);
    expect(shown.fields).toEqual({ amount: '25.90 BRL', key, message: 'Order 42', txid, status: 'ATIVA' });
    expect(shown.brcode).toBe(code);
    // The QR image the browser shows reads back as the charge's code, to the character.
    expect(shown.qr).toBe(code);
    // The page's origin is not the sandbox's: both answers passed the browser's CORS check.
    expect(new URL(site.url).origin).not.toBe(sandbox.origin);
    expect(shown.responses).toEqual([
      { url: `${sandbox.origin}${payloadPath}`, status: 200, allowOrigin: '*' },
      { url: expect.stringMatching(`^${sandbox.origin}/`), status: 200, allowOrigin: '*' }, // the key set at the header's jku
    ]);
  });

  it('shows a due-date charge at its amount for today', async () => {
    const due = addDays(todayInBrasilia(), 10);
    const cobv = await api.cobv.create(generateTxid(), {
      calendario: { dataDeVencimento: due },
      devedor: { cpf: '12345678909', nome: 'Student One' },
      valor: { original: '450.00' },
      chave: key,
    });
    const shown = await visit(payerPageUrl(site.url, cobv.instantCopiaECola!, sandbox.origin));

    expect(shown.pageErrors).toEqual([]);
    expect(shown.state).toBe('verified');
    expect(shown.fields).toMatchObject({
      amount: '450.00 BRL',
      txid: cobv.txid,
      due,
      status: 'ATIVA',
      receiver: expect.stringMatching(/\S/),
    });
  });

  it('refuses a payload tampered with on its way: PayloadVerificationError (bad-signature), nothing shown', async () => {
    const { code, payloadPath } = await createCob('25.90');
    const genuine = await (await fetch(`${sandbox.origin}${payloadPath}`)).text();
    const [header, body, signature] = genuine.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { valor: { original: string } };
    payload.valor.original = '0.01';
    const tampered = [header, Buffer.from(JSON.stringify(payload)).toString('base64url'), signature].join('.');

    // A man in the middle answers for the payload; the key set still comes from the sandbox.
    const shown = await visit(payerPageUrl(site.url, code, sandbox.origin), async (request) => {
      if (request.url() !== `${sandbox.origin}${payloadPath}`) return request.continue();
      return request.respond({
        status: 200,
        contentType: 'application/jose',
        headers: { 'access-control-allow-origin': '*' },
        body: tampered,
      });
    });

    expect(shown.state).toBe('error');
    expect(shown.error).toEqual({
      name: 'PayloadVerificationError',
      message: expect.stringContaining('(bad-signature)'),
    });
    expect(shown.fields).toEqual({});
    expect(shown.brcode).toBe('');
    expect(shown.qr).toBeUndefined();
    expect(shown.pageErrors).toEqual([]);
  });

  it('refuses a loopback location when not pointed at a sandbox: InvalidLocationError, no request sent', async () => {
    const { code } = await createCob('25.90');
    const shown = await visit(payerPageUrl(site.url, code));

    expect(shown.state).toBe('error');
    expect(shown.error).toEqual({ name: 'InvalidLocationError', message: expect.stringContaining('(private-host)') });
    expect(shown.fields).toEqual({});
    expect(shown.qr).toBeUndefined();
    expect(shown.responses).toEqual([]);
  });

  it('shows a paid charge as gone: CobPayloadNaoEncontrado', async () => {
    const { txid, code } = await createCob('25.90');
    const paid = await fetch(`${sandbox.origin}/sandbox/charges/${txid}/pay`, { method: 'POST' });
    expect(paid.status).toBe(200);
    const shown = await visit(payerPageUrl(site.url, code, sandbox.origin));

    expect(shown.state).toBe('error');
    expect(shown.error?.name).toBe('CobPayloadNaoEncontrado');
    expect(shown.fields).toEqual({});
  });

  it('takes only a loopback http origin as its sandbox', async () => {
    const { code } = await createCob('25.90');
    const shown = await visit(payerPageUrl(site.url, code, 'http://payments.example'));

    expect(shown.error).toEqual({ name: 'TypeError', message: expect.stringContaining('a sandbox on this machine') });
    expect(shown.responses).toEqual([]);
  });

  it('shows a static code as written, with nothing to fetch', async () => {
    const code = brcode.build({
      key,
      amount: '10.00',
      txid: 'ORDER123',
      merchantName: 'Loja',
      merchantCity: 'Brasilia',
    });
    const shown = await visit(payerPageUrl(site.url, code));

    expect(shown.state).toBe('static');
    expect(shown.fields).toEqual({
      amount: '10.00 BRL',
      receiver: brcode.parse(code).merchantName,
      key,
      txid: 'ORDER123',
    });
    expect(shown.brcode).toBe(code);
    expect(shown.qr).toBe(code);
    expect(shown.responses).toEqual([]);
  });
});
