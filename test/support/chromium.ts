/**
 * A real headless Chromium for the browser tests and the payer page demo, from the binary the
 * `@sparticuz/chromium` dev dependency ships (brotli-compressed inside the package: nothing is
 * downloaded). Driven by `puppeteer-core` over a pipe (no debugging port), with a fresh profile
 * and the switches that keep it off the network.
 *
 * The package inflates its binary into the system's temporary folder, shared by every checkout
 * and every version; here it is inflated once per package version into
 * `node_modules/.cache/chromium/<version>/`, in a child process pointed at a staging folder that
 * is then renamed into place, so runs side by side never see a half-written binary.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import puppeteer, { type Browser } from 'puppeteer-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Keeps Chromium to the pages it is sent to: no updates, sync, pings or QUIC to anyone. */
export const CHROMIUM_ARGS = [
  '--no-sandbox', // the tests may run as root
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--no-pings',
  '--disable-domain-reliability',
] as const;

export interface TestBrowser {
  browser: Browser;
  /** e.g. `HeadlessChrome/147.0.7727.0` */
  version: string;
  /** Closes the browser and removes its profile. Safe to call twice. */
  close(): Promise<void>;
}

/** Launches headless Chromium; throws with the reason when it cannot. */
export async function launchChromium(): Promise<TestBrowser> {
  const dir = await chromiumDir();
  const profile = mkdtempSync(join(tmpdir(), 'instant-chromium-profile-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: join(dir, 'chromium'),
      headless: 'shell', // the package's binary is the headless shell
      pipe: true,
      userDataDir: profile,
      args: [...CHROMIUM_ARGS],
      // The fonts the package ships, and only those: pages render the same on every machine.
      env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') },
      timeout: 20_000,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw new Error(`Headless Chromium (${join(dir, 'chromium')}) did not launch: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let closed: Promise<void> | undefined;
  return {
    browser,
    version: await browser.version(),
    close: () =>
      (closed ??= browser
        .close()
        .catch(() => browser.process()?.kill('SIGKILL'))
        .then(() => rmSync(profile, { recursive: true, force: true }))),
  };
}

/** The folder holding the inflated binary, its libraries and a fonts.conf; inflated on first use. */
async function chromiumDir(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'node_modules/@sparticuz/chromium/package.json'), 'utf8')) as {
    version: string;
  };
  const cache = join(ROOT, 'node_modules/.cache/chromium');
  const dir = join(cache, version);
  if (existsSync(join(dir, 'chromium'))) return dir;

  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `.${version}-`));
  try {
    // executablePath() inflates into os.tmpdir(): the child's TMPDIR is the staging folder.
    const script =
      "const { default: chromium } = await import('@sparticuz/chromium'); console.log(await chromium.executablePath());";
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      timeout: 120_000,
    });
    const fonts = join(dir, 'fonts/fonts');
    writeFileSync(
      join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${fonts}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another run inflated the same version first: use its copy.
    if (existsSync(join(dir, 'chromium'))) return dir;
    throw new Error(
      `Could not inflate the Chromium binary of @sparticuz/chromium ${version}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return dir;
}
