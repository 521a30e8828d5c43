/**
 * The README and the guides in docs/: every ```ts block compiles against the package (one program
 * for all of them), every relative link and #anchor resolves. The checker is tried first on a
 * sample with a known-broken block and link, so a checker that finds nothing cannot pass.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anchors,
  brokenLinks,
  codeBlocks,
  compileBlocks,
  markdownFiles,
  type Markdown,
} from '../scripts/docs-check.ts';

const sample: Markdown[] = [
  {
    path: 'docs/sample.md',
    text: [
      '# Sample',
      '## A `cob` charge: create',
      'See [the charge](#a-cob-charge-create), [nothing](#nowhere), [the README](../README.md),',
      '[a missing guide](missing.md) and [`code`](https://example.com).',
      '```ts',
      "import { InstantClient } from 'instant-payments';",
      "const api = new InstantClient({ baseUrl: 'http://127.0.0.1/v2' });",
      'await api.cob.get(42);',
      '```',
      '```ts partial',
      'api.cob.get(txid);',
      '```',
      '  ```ts',
      "  import { brcode } from 'instant-payments/payer';",
      "  const amount: number = brcode.parse('x').amount;",
      '  ```',
    ].join('\n'),
  },
];

const files = markdownFiles();
/** The sample's and the real files' blocks, compiled in one program (one type-check of the package). */
let compiled: string[];
beforeAll(() => {
  compiled = compileBlocks([...sample, ...files]);
}, 240_000);

describe('the docs checker (on a sample)', () => {
  it('finds a block that does not compile, at its line, and skips a partial one', () => {
    expect(compiled.filter((problem) => problem.startsWith('docs/sample.md:'))).toEqual([
      expect.stringMatching(
        /^docs\/sample\.md:8: Argument of type 'number' is not assignable to parameter of type 'string'/,
      ),
      expect.stringMatching(/^docs\/sample\.md:15: Type 'string \| undefined' is not assignable to type 'number'/),
    ]);
  });

  it('finds a link to a missing file or anchor', () => {
    expect(brokenLinks(sample)).toEqual([
      'docs/sample.md: link to a missing anchor: #nowhere',
      'docs/sample.md: link to a missing file: missing.md',
    ]);
  });

  it('reads blocks with their fence info, and anchors as GitHub makes them', () => {
    expect(codeBlocks(sample[0]!).map((b) => [b.line, b.info])).toEqual([
      [6, 'ts'],
      [11, 'ts partial'],
      [14, 'ts'],
    ]);
    expect([...anchors('# A\n## Errors, retries & time-outs\n## A\n```sh\n# not a heading\n```')]).toEqual([
      'a',
      'errors-retries--time-outs',
      'a-1',
    ]);
  });
});

describe('README.md and docs/*.md', () => {
  it('has the guides', () => {
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/cash-out.md']),
    );
  });

  it('every relative link and anchor resolves', () => {
    expect(brokenLinks(files)).toEqual([]);
  });

  it('every ts block compiles against the package (fence `ts partial` for a deliberate fragment)', () => {
    expect(compiled.filter((problem) => !problem.startsWith('docs/sample.md:'))).toEqual([]);
  });
});
