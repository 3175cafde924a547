// ESLint flat config (ESLint 9, typescript-eslint 8). `npm run lint` runs it before every test run.
// The rules are typescript-eslint's `recommended` set, not the type-checked one: it needs no type
// information, so the whole tree lints in seconds on a 2-core machine.
//
// The layer rule (CONTRIBUTING.md, "Layers"): a file under src/<layer>/ may import from its own
// layer, the layers below it and the neutral top-level modules (src/*.ts, such as src/errors.ts),
// never from a layer above. The neutral modules import no layer at all. test/ and bench/ may import
// anything.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** The layers of src/, top to bottom. */
export const LAYERS = ['cli', 'http', 'service', 'auth', 'store', 'oscal', 'metaschema'];

/** How deep below src/<layer>/ a file may sit; one config block per depth keeps the match exact. */
const MAX_DEPTH = 8;

/**
 * A pattern for relative import paths that climb exactly `up` directories and then enter one of
 * `layers`. `\x2F` stands for `/` so that the same source also works in an esquery selector.
 */
function climbingInto(up, layers) {
  const start = up === 0 ? '\\.\\x2F' : '(\\.\\x2F)?' + '\\.\\.\\x2F'.repeat(up);
  return `^${start}(${layers.join('|')})(\\x2F|$)`;
}

function layerRules(source, message) {
  return {
    // static imports and re-exports (`import`, `import type`, `export ... from`)
    'no-restricted-imports': ['error', { patterns: [{ regex: source, message }] }],
    // dynamic `import()`
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression[source.type='Literal'][source.value=/${source}/]`, message },
    ],
  };
}

function layerBlocks() {
  const blocks = [];
  // Neutral top-level modules (src/*.ts) import from no layer.
  blocks.push({
    name: 'layers/neutral',
    files: ['src/*.ts'],
    rules: layerRules(
      climbingInto(0, LAYERS),
      'A top-level module of src/ is neutral: every layer may import it, so it imports from none of them (CONTRIBUTING.md, "Layers").',
    ),
  });
  LAYERS.forEach((layer, index) => {
    const above = LAYERS.slice(0, index);
    if (above.length === 0) return;
    const message =
      `src/${layer}/ may import only from its own layer, the layers below it (${LAYERS.slice(index + 1).join(', ') || 'none'}) ` +
      `and the neutral src/*.ts modules, not from ${above.map((l) => `src/${l}/`).join(', ')} (CONTRIBUTING.md, "Layers").`;
    for (let depth = 1; depth <= MAX_DEPTH; depth++) {
      blocks.push({
        name: `layers/${layer}/depth-${depth}`,
        files: [`src/${layer}/${'*/'.repeat(depth - 1)}*.ts`],
        rules: layerRules(climbingInto(depth, above), message),
      });
    }
  });
  return blocks;
}

export default defineConfig(
  {
    name: 'ignores',
    ignores: ['dist/', 'node_modules/', 'vendor/', 'test/fixtures/', '**/generated/', 'data/', '.bench-tmp/'],
  },
  {
    name: 'typescript',
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    extends: [tseslint.configs.recommended],
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // names starting with `_` are meant to be unused
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // a `let` closed over before its one assignment (a circle of services wired once) stays `let`
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `interface X extends Y {}` beside `class X` is how the stores declare the operations their
      // parts copy onto them; an empty interface extending one type is allowed for that
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // The stores' class and interface of the same name (see above): the class gets its operations
    // from the parts in its constructor, and a check there makes sure none is left out.
    name: 'stores-declaration-merging',
    files: ['src/store/sqlite/sqlite-store.ts', 'src/store/postgres/postgres-store.ts'],
    rules: { '@typescript-eslint/no-unsafe-declaration-merging': 'off' },
  },
  {
    // Tests read JSON answers as `Record<string, any>`: typing every answer is not worth it there.
    name: 'tests',
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  layerBlocks(),
);
