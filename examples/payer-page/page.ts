/**
 * A payer page, for browsers: reads a BR Code from the address (`?code=<copy-and-paste code>`),
 * fetches the charge's signed payload at the code's location, verifies its signature, and shows
 * what the payer would pay, with its QR image. Only `instant-payments/payer` and
 * `instant-payments/qr` (no Node built-ins); `serve.ts` bundles it with esbuild for the browser
 * and serves it with `index.html`.
 *
 * `?sandbox=http://127.0.0.1:PORT` points the page at a sandbox listening on this machine
 * (`npx instant-payments-sandbox`, or `createSandbox().listen()`): for local testing only.
 */
import {
  PayerClient,
  brcode,
  todayInBrasilia,
  type CobPayload,
  type CobVPayload,
  type PayerClientOptions,
} from '../../src/payer.ts';
import { qrPng } from '../../src/qr.ts';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Sandbox only: the payer's options for a sandbox listening over plain http at `origin`
 * (`http://127.0.0.1:PORT`), the browser's counterpart of `sandbox.payerOptions()`. A location
 * carries no scheme and the payer fetches it over https; this `fetch` sends the requests for the
 * sandbox's host over http instead, and `allowPrivateHosts` lets the loopback host through.
 * Anything but a loopback http origin is refused: a page in production uses `new PayerClient()`.
 */
export function sandboxPayerOptions(origin: string): PayerClientOptions {
  const sandbox = new URL(origin);
  if (
    sandbox.protocol !== 'http:' ||
    !LOOPBACK_HOSTS.has(sandbox.hostname) ||
    sandbox.origin !== origin.replace(/\/$/, '')
  ) {
    throw new TypeError('sandbox must be the origin of a sandbox on this machine, e.g. http://127.0.0.1:8080');
  }
  const asHttps = `https://${sandbox.host}/`;
  return {
    allowPrivateHosts: true,
    fetch: (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return fetch(url.startsWith(asHttps) ? `${sandbox.origin}/${url.slice(asHttps.length)}` : url, init);
    },
  };
}

/** What the page shows of a charge; every value comes from the signed payload when there is one. */
export interface ChargeView {
  /** `true` once the payload's signature verified; a static code has nothing to verify. */
  verified: boolean;
  /** The host whose key set signed the payload. */
  signedBy?: string | undefined;
  amount?: string | undefined;
  receiver?: string | undefined;
  key?: string | undefined;
  message?: string | undefined;
  txid?: string | undefined;
  status?: string | undefined;
  due?: string | undefined;
}

/** Reads a copy-and-paste code and, for a dynamic one, its verified payload. */
export async function readCharge(code: string, payer: PayerClient): Promise<ChargeView> {
  const parsed = brcode.parse(code); // BrCodeError on a bad checksum or layout
  if (parsed.url === undefined) {
    return {
      verified: false,
      amount: parsed.amount,
      receiver: parsed.merchantName,
      key: parsed.key,
      message: parsed.infoAdicional,
      txid: parsed.txid,
    };
  }
  const signedBy = parsed.url.split('/', 1)[0];
  // A dynamic code's amount and txid come from the signed payload, never from the code itself.
  if (parsed.url.includes('/cobv/')) {
    const payload: CobVPayload = await payer.cobPayload.getCobv(parsed.url, { DPP: todayInBrasilia() });
    return {
      ...common(payload),
      verified: true,
      signedBy,
      amount: payload.valor.final,
      receiver: payload.recebedor.nomeFantasia ?? payload.recebedor.nome,
      due: payload.calendario.dataDeVencimento,
    };
  }
  const payload: CobPayload = await payer.cobPayload.getCob(parsed.url);
  return { ...common(payload), verified: true, signedBy, amount: payload.valor.original };
}

function common(payload: CobPayload | CobVPayload) {
  return { key: payload.chave, message: payload.solicitacaoPagador, txid: payload.txid, status: payload.status };
}

// The page. Payload values come from a third party: they are only ever set as text, never as HTML.

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function setStatus(state: 'verified' | 'static' | 'error' | 'empty', text: string): void {
  const status = element('status');
  status.dataset['state'] = state;
  status.textContent = text;
}

function showCharge(code: string, view: ChargeView): void {
  const rows: Array<[field: string, label: string, value: string | undefined]> = [
    ['amount', 'Amount', view.amount === undefined ? undefined : `${view.amount} BRL`],
    ['receiver', 'Receiver', view.receiver],
    ['key', 'Key', view.key],
    ['message', 'Message', view.message],
    ['txid', 'Charge', view.txid],
    ['status', 'Status', view.status],
    ['due', 'Due', view.due],
  ];
  const list = element('charge');
  for (const [field, label, value] of rows) {
    if (value === undefined) continue;
    const term = document.createElement('dt');
    term.textContent = label;
    const detail = document.createElement('dd');
    detail.dataset['field'] = field;
    detail.textContent = value;
    list.append(term, detail);
  }
  list.hidden = false;
  element('brcode').textContent = code;
  element('pay').hidden = false;
}

/** Shows the code as a QR image (a PNG made in the page); resolves once the image is decoded. */
async function showQr(code: string): Promise<void> {
  const png = await qrPng(code, { scale: 8 });
  const image = element<HTMLImageElement>('qr');
  image.src = URL.createObjectURL(new Blob([png], { type: 'image/png' }));
  await image.decode();
}

function showError(error: unknown): void {
  const { name, message } = error instanceof Error ? error : new Error(String(error));
  setStatus('error', 'This code cannot be paid here');
  element('error-name').textContent = name;
  element('error-message').textContent = message;
  element('error').hidden = false;
}

async function main(): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const code = params.get('code')?.trim() ?? '';
  const sandbox = params.get('sandbox');
  if (sandbox !== null) {
    // Keeps the sandbox for the next code read with the form.
    const field = element<HTMLInputElement>('sandbox');
    field.value = sandbox;
    field.disabled = false;
  }
  if (code === '') return setStatus('empty', 'Paste a copy-and-paste code below.');
  try {
    const payer = new PayerClient(sandbox === null ? {} : sandboxPayerOptions(sandbox));
    const view = await readCharge(code, payer);
    showCharge(code, view);
    // The page has settled (the status leaves "loading") only once the image is there.
    await showQr(code);
    setStatus(
      view.verified ? 'verified' : 'static',
      view.verified
        ? `Signature verified (key set of ${view.signedBy})`
        : 'A static code: the amount and receiver are as the code says',
    );
  } catch (error) {
    showError(error);
  }
}

void main();
