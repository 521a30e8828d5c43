import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYER_GZIP_BUDGET, QR_ENTRY, QR_GZIP_BUDGET, measureBundle } from '../../bench/payer-size.ts';

describe('payer entry', () => {
  it('bundles for a browser with no Node built-in, within the gzip budget', async () => {
    const size = await measureBundle();
    expect(size.gzipped).toBeLessThanOrEqual(PAYER_GZIP_BUDGET);
    // The backend's HTTP stack stays out of the payer bundle.
    const inputs = size.inputs.map((i) => i.path);
    for (const banned of [
      'node_modules/ky/',
      'node_modules/zod/',
      'node_modules/undici/',
      'node_modules/openid-client/',
    ]) {
      expect(inputs.some((p) => p.includes(banned))).toBe(false);
    }
    // QR images only when the page imports instant-payments/qr.
    expect(inputs.filter((p) => p.includes('node_modules/qr/') || p.includes('src/qr'))).toEqual([]);
  });

  it('leaves the QR entry to bundle on its own: no Node built-in, within its gzip budget', async () => {
    const size = await measureBundle(QR_ENTRY);
    expect(size.gzipped).toBeLessThanOrEqual(QR_GZIP_BUDGET);
    const inputs = size.inputs.map((i) => i.path);
    expect(inputs.some((p) => p.includes('node_modules/qr/'))).toBe(true);
    // Neither the payer client nor the backend's stack comes with it.
    for (const banned of ['node_modules/jose/', 'node_modules/ky/', 'node_modules/zod/', 'src/payer/', 'src/core/']) {
      expect(
        inputs.some((p) => p.includes(banned)),
        banned,
      ).toBe(false);
    }
  });

  it.each(['payer', 'qr'])('has no Node-only global or import in the sources of src/%s/', (part) => {
    const dir = new URL(`../../src/${part}/`, import.meta.url);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text, file).not.toMatch(
        /from ['"]node:|\bBuffer\b|\bprocess\.|from ['"](?:undici|zod|openid-client|ky)['"]/,
      );
    }
  });

  it('makes the size check fail when a Node built-in is imported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payer-size-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(
        entry,
        "import { gzipSync } from 'node:zlib';\nimport { readFile } from 'fs';\nexport { gzipSync, readFile };\n",
      );
      await expect(measureBundle(entry)).rejects.toThrow(/node:zlib[\s\S]*fs/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
