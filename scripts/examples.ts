/**
 * `npm run examples`: runs every example in examples/ as its own Node process and reports how
 * each ended. With no credentials in the environment each example runs against its own
 * sandbox; `--sandbox` removes the credentials variables (INSTANT_*, CASH_OUT_*) even when set.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CREDENTIAL_PREFIXES } from '../examples/setup.ts';

const EXAMPLES_DIR = fileURLToPath(new URL('../examples/', import.meta.url));

/** The runnable examples: the top-level files of examples/, without the shared setup. */
export const EXAMPLES: readonly string[] = readdirSync(EXAMPLES_DIR)
  .filter((name) => name.endsWith('.ts') && name !== 'setup.ts')
  .sort();

/** `env` without the variables that would send the examples to a real provider. */
export function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !CREDENTIAL_PREFIXES.some((prefix) => name.startsWith(prefix))),
  );
}

export interface ExampleRun {
  name: string;
  code: number | null;
  output: string;
  ms: number;
}

/** Runs one example with the Node running this script; kills it after `timeoutMs`. */
export function runExample(name: string, env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<ExampleRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [EXAMPLES_DIR + name], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ name, code, output, ms: performance.now() - started }));
  });
}

if (import.meta.filename === process.argv[1]) {
  const env = process.argv.includes('--sandbox') ? withoutCredentials(process.env) : process.env;
  let failed = 0;
  for (const name of EXAMPLES) {
    const run = await runExample(name, env);
    if (run.code !== 0) failed++;
    console.log(
      `\n${run.code === 0 ? 'ok  ' : 'FAIL'} examples/${name} (exit ${run.code}, ${(run.ms / 1000).toFixed(1)} s)`,
    );
    console.log(run.output.trimEnd().replace(/^/gm, '     '));
  }
  console.log(`\n${EXAMPLES.length - failed} of ${EXAMPLES.length} examples ran cleanly`);
  process.exitCode = failed === 0 ? 0 : 1;
}
