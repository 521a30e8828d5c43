/** `npm run bench`: every benchmark module in this folder, one after the other. */
import { readdirSync } from 'node:fs';

const only = process.argv[2];
const here = new URL('.', import.meta.url);
const modules = readdirSync(here)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .filter((file) => !only || file.includes(only))
  .sort();

let failed = false;
for (const file of modules) {
  const { run } = (await import(new URL(file, here).href)) as { run: () => Promise<void> };
  try {
    await run();
  } catch (error) {
    failed = true;
    console.error(`${file} failed:`, error instanceof Error ? error.message : error);
  }
  console.log('');
}
process.exitCode = failed ? 1 : 0;
