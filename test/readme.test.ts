import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withTable } from '../scripts/readme-errors.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('has the error table of ERROR_CATALOGUE (run `node scripts/readme-errors.ts` after changing it)', () => {
    expect(readme).toBe(withTable(readme));
  });

  it('tells a new user the two commands, and CI runs exactly the test one', () => {
    expect(readme).toContain('npm install');
    expect(readme).toContain('npm test');
    const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
    expect(ci).toMatch(/^npm install$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it.each(['checkout-msw.test.ts', 'checkout-listen.test.ts'])('shows examples/testing/%s as it is (with package imports)', (name) => {
    const file = readFileSync(new URL(`../examples/testing/${name}`, import.meta.url), 'utf8')
      .replaceAll("'../../src/index.ts'", "'instant-payments'")
      .replaceAll("'../../src/sandbox.ts'", "'instant-payments/sandbox'");
    expect(readme).toContain('```ts\n' + file + '```');
  });

  it('shows the two commands and the tour output on its first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 60).join('\n');
    expect(firstScreen).toMatch(/npm install\nnpm start .*\nnpm test /);
    expect(firstScreen).toContain('Done in');
  });
});
