/**
 * What the README and the guides show that must stay true: the error table (the catalogue's), the
 * commands and quick starts on the landing page, the testing files as they are in examples/testing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GUIDE, withTable } from '../scripts/error-table.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README and guides', () => {
  it('the errors guide has the error table of ERROR_CATALOGUE (run `node scripts/error-table.ts` after changing it)', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    expect(guide).toBe(withTable(guide));
  });

  it('tells a new user the two commands, and CI runs exactly the test one', () => {
    expect(readme).toContain('npm install');
    expect(readme).toContain('npm test');
    const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');
    expect(ci).toMatch(/^npm install$/m);
    expect(ci).toMatch(/^npm test$/m);
  });

  it.each(['checkout-msw.test.ts', 'checkout-listen.test.ts'])(
    'the testing guide shows examples/testing/%s as it is (with package imports)',
    (name) => {
      const guide = readFileSync(new URL('../docs/sandbox-and-testing.md', import.meta.url), 'utf8');
      const file = readFileSync(new URL(`../examples/testing/${name}`, import.meta.url), 'utf8')
        .replaceAll("'../../src/index.ts'", "'instant-payments'")
        .replaceAll("'../../src/sandbox.ts'", "'instant-payments/sandbox'");
      expect(guide).toContain(`\`\`\`ts in=examples/testing\n${file}\`\`\``);
    },
  );

  it.each(['sandbox-merchant.ts', 'sandbox-payer.ts'])(
    'the README quick start shows examples/%s as it is (which examples.test.ts runs)',
    (name) => {
      const file = readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8')
        .replaceAll("'../src/index.ts'", "'instant-payments'")
        .replaceAll("'../src/payer.ts'", "'instant-payments/payer'")
        .replaceAll("'../src/sandbox.ts'", "'instant-payments/sandbox'");
      expect(readme).toContain(`\`\`\`ts\n${file}\`\`\``);
    },
  );

  it('opens with install and how to get Node 22.12+, then the repository commands and the tour output', () => {
    const firstScreen = readme.split('\n').slice(0, 80).join('\n');
    const install = firstScreen.indexOf('npm install instant-payments');
    expect(install).toBeGreaterThan(0);
    expect(firstScreen.slice(install)).toMatch(/Node 22\.12[\s\S]*npx -p node@22[\s\S]*nvm install 22[\s\S]*node:22/);
    expect(firstScreen.indexOf('npm start')).toBeGreaterThan(install);
    expect(firstScreen).toMatch(/npm install\nnpm start .*\nnpm test /);
    expect(firstScreen).toContain('Done in');
  });

  it('names the version the package carries in the changelog', () => {
    const changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8');
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(changelog).toMatch(new RegExp(`^## .*\\b${version.replaceAll('.', '\\.')}\\b`, 'm'));
  });

  it('stays a landing page: at most 600 lines, with a table of contents', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(600);
    expect(readme).toMatch(/^## Contents$/m);
  });
});
