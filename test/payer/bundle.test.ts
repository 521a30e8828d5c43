import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYER_GZIP_BUDGET, measurePayerBundle } from '../../bench/payer-size.ts';

describe('payer entry', () => {
  it('bundles for a browser with no Node built-in, within the gzip budget', async () => {
    const size = await measurePayerBundle();
    expect(size.gzipped).toBeLessThanOrEqual(PAYER_GZIP_BUDGET);
    // The backend's HTTP stack stays out of the payer bundle.
    const inputs = size.inputs.map((i) => i.path);
    for (const banned of ['node_modules/ky/', 'node_modules/zod/', 'node_modules/undici/', 'node_modules/openid-client/']) {
      expect(inputs.some((p) => p.includes(banned))).toBe(false);
    }
  });

  it('has no Node-only global or import in its sources', () => {
    const dir = new URL('../../src/payer/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text, file).not.toMatch(/from ['"]node:|\bBuffer\b|\bprocess\.|from ['"](?:undici|zod|openid-client|ky)['"]/);
    }
  });

  it('makes the size check fail when a Node built-in is imported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payer-size-'));
    try {
      const entry = join(dir, 'entry.ts');
      writeFileSync(entry, "import { gzipSync } from 'node:zlib';\nimport { readFile } from 'fs';\nexport { gzipSync, readFile };\n");
      await expect(measurePayerBundle(entry)).rejects.toThrow(/node:zlib[\s\S]*fs/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
