/**
 * `npm run demo:payer-page [-- file.png]`: the payer page (examples/payer-page/) in headless
 * Chromium, reading a charge from an in-process sandbox, saved as a screenshot (default
 * examples/payer-page/screenshot.png). No credentials, no network: everything on 127.0.0.1.
 */
import { fileURLToPath } from 'node:url';
import { InstantClient, generateTxid } from '../src/index.ts';
import { createSandbox } from '../src/sandbox.ts';
import { PAGE_SETTLED, payerPageUrl, servePayerPage } from '../examples/payer-page/serve.ts';
import { launchChromium } from '../test/support/chromium.ts';

const output = process.argv[2] ?? fileURLToPath(new URL('../examples/payer-page/screenshot.png', import.meta.url));

const sandbox = createSandbox();
await sandbox.listen({ port: 0 });
const site = await servePayerPage().catch(async (error: unknown) => {
  await sandbox.close();
  throw error;
});
try {
  const api = new InstantClient(sandbox.clientOptions());
  const cob = await api.cob.create(generateTxid(), {
    calendario: { expiracao: 3600 },
    valor: { original: '25.90' },
    chave: sandbox.ownKeys[0]!,
    solicitacaoPagador: 'Order 42: two coffees',
  });
  const chromium = await launchChromium();
  try {
    const page = await chromium.browser.newPage();
    await page.setViewport({ width: 800, height: 600 });
    await page.goto(payerPageUrl(site.url, cob.instantCopiaECola!, sandbox.origin));
    await page.waitForSelector(PAGE_SETTLED, { timeout: 10_000 });
    await page.screenshot({ path: output as `${string}.png`, fullPage: true });
    const status = await page.$eval('#status', (element) => element.textContent);
    console.log(`${chromium.version}: ${status}\nscreenshot: ${output}`);
  } finally {
    await chromium.close();
  }
} finally {
  await site.close();
  await sandbox.close();
}
