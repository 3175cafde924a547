// The lint setup (eslint.config.js) holds the layer order of CONTRIBUTING.md ("Layers") and fails on
// an ordinary rule of typescript-eslint's recommended set. Each case lints a few lines as if they
// were a file at the given path; the files need not exist.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ESLint, type Linter } from 'eslint';

// dist/test/lint-rules.test.js -> the project root, where eslint.config.js is
const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  assert.ok(result, `a result for ${filePath}`);
  return result.messages;
}

function rulesOf(messages: Linter.LintMessage[]): (string | null)[] {
  return messages.map((m) => m.ruleId);
}

const importApp = (path: string) => `import { buildApp } from '${path}';\nexport const app = buildApp;\n`;

describe('the layer rule', () => {
  it('reports an import of a higher layer (src/store importing src/http)', async () => {
    const messages = await lint('src/store/x.ts', importApp('../http/app.js'));
    assert.deepEqual(rulesOf(messages), ['no-restricted-imports']);
    assert.equal(messages[0]!.severity, 2);
    assert.match(messages[0]!.message, /src\/store\/ may import only from its own layer/);
  });

  it('allows the same import from the layer above it (src/cli importing src/http)', async () => {
    assert.deepEqual(await lint('src/cli/x.ts', importApp('../http/app.js')), []);
  });

  it('allows every layer to import the neutral src/errors.ts (src/auth importing ../errors.js)', async () => {
    const code = `import { ERROR_CODES } from '../errors.js';\nexport const codes = ERROR_CODES;\n`;
    assert.deepEqual(await lint('src/auth/x.ts', code), []);
    assert.deepEqual(await lint('src/metaschema/x.ts', code), []);
    assert.deepEqual(await lint('src/store/sqlite/x.ts', code.replace('../errors.js', '../../errors.js')), []);
  });

  it('reports auth importing service, the one below it importing the one above', async () => {
    const messages = await lint('src/auth/x.ts', importApp('../service/blobs.js'));
    assert.deepEqual(rulesOf(messages), ['no-restricted-imports']);
  });

  it('allows imports of the own layer and of every layer below', async () => {
    const code = [
      `import { a } from './y.js';`,
      `import { b } from '../store/types.js';`,
      `import { c } from '../oscal/formats/index.js';`,
      `import type { DataType } from '../metaschema/ir.js';`,
      `export const all: [unknown, unknown, unknown, DataType | undefined] = [a, b, c, undefined];`,
      '',
    ].join('\n');
    assert.deepEqual(await lint('src/auth/x.ts', code), []);
  });

  it('checks files in subfolders of a layer, type-only imports, re-exports and dynamic imports', async () => {
    assert.deepEqual(rulesOf(await lint('src/store/sqlite/x.ts', importApp('../../http/app.js'))), [
      'no-restricted-imports',
    ]);
    assert.deepEqual(rulesOf(await lint('src/oscal/metapath/functions/x.ts', importApp('../../../store/index.js'))), [
      'no-restricted-imports',
    ]);
    const typeOnly = `import type { Store } from '../store/index.js';\nexport type S = Store;\n`;
    assert.deepEqual(rulesOf(await lint('src/oscal/x.ts', typeOnly)), ['no-restricted-imports']);
    assert.deepEqual(rulesOf(await lint('src/oscal/x.ts', `export * from '../service/services.js';\n`)), [
      'no-restricted-imports',
    ]);
    const dynamic = `export const load = () => import('../http/app.js');\n`;
    assert.deepEqual(rulesOf(await lint('src/service/x.ts', dynamic)), ['no-restricted-syntax']);
    assert.deepEqual(await lint('src/cli/x.ts', dynamic), []);
  });

  it('reports metaschema importing oscal, the engine sitting above the compiler', async () => {
    assert.deepEqual(rulesOf(await lint('src/metaschema/x.ts', importApp('../oscal/model/model.js'))), [
      'no-restricted-imports',
    ]);
  });

  it('lets a neutral top-level module import other neutral modules but no layer', async () => {
    assert.deepEqual(await lint('src/x.ts', importApp('./errors.js')), []);
    assert.deepEqual(rulesOf(await lint('src/x.ts', importApp('./service/errors.js'))), ['no-restricted-imports']);
    assert.deepEqual(rulesOf(await lint('src/x.ts', importApp('./metaschema/ir.js'))), ['no-restricted-imports']);
  });

  it('lets test/ and bench/ import any layer', async () => {
    assert.deepEqual(await lint('test/x.test.ts', importApp('../src/http/app.js')), []);
    assert.deepEqual(await lint('test/support/x.ts', importApp('../../src/store/index.js')), []);
    assert.deepEqual(await lint('bench/x.ts', importApp('../src/cli/serve.js')), []);
  });
});

describe('the recommended rules', () => {
  it('report an explicit any in src/', async () => {
    const messages = await lint(
      'src/oscal/x.ts',
      `export function f(value: any): string {\n  return String(value);\n}\n`,
    );
    assert.deepEqual(rulesOf(messages), ['@typescript-eslint/no-explicit-any']);
    assert.equal(messages[0]!.severity, 2);
  });

  it('report an unused variable, but not one whose name starts with _', async () => {
    const unused = `export function f(): number {\n  const unused = 1;\n  return 2;\n}\n`;
    assert.deepEqual(rulesOf(await lint('src/oscal/x.ts', unused)), ['@typescript-eslint/no-unused-vars']);
    assert.deepEqual(await lint('src/oscal/x.ts', unused.replace('unused', '_unused')), []);
  });

  it('make the lint of a file fail (an error, not a warning)', async () => {
    const [result] = await eslint.lintText(`let never = 1;\nexport { never };\n`, { filePath: 'src/cli/x.ts' });
    assert.equal(result!.errorCount, 1);
    assert.equal(result!.messages[0]!.ruleId, 'prefer-const');
  });
});
