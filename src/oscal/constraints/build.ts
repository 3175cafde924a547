/**
 * Build step, after the Metaschema compiler: compiles each release's own constraints (kept in
 * its IR as written) into dist/generated/constraints/, expressions parsed and checked, so that a
 * running process neither reads Metaschema XML nor parses NIST's expressions.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { bindIR } from '../../metaschema/bindings.js';
import type { ModelIR } from '../../metaschema/ir.js';
import type { XmlElement } from '../../metaschema/xml-tree.js';
import { SUPPORTED_VERSIONS, generatedFile } from '../model/versions.js';
import { compileRules, letNames } from './compile.js';
import { Corrector } from './corrections.js';
import type { ModelConstraints, Rule } from './model.js';

function compileRelease(ir: ModelIR): ModelConstraints {
  const { index } = bindIR(ir);
  const corrector = new Corrector(ir.version);
  const variables = Object.values(ir.definitions).flatMap((d) => d.constraints.flatMap(letNames));
  const rules: Rule[] = [];
  const compiled = new Map<string, number[]>();

  const compile = (key: string, elements: readonly XmlElement[], module: string): number[] => {
    let known = compiled.get(key);
    if (!known) {
      const file = ir.modules[module]!;
      known = compileRules(corrector.correct(file, elements), { file, idPrefix: key, namespaces: {}, variables }).map(
        (rule) => rules.push(rule) - 1,
      );
      compiled.set(key, known);
    }
    return known;
  };

  const byDefinition: Record<number, number[]> = {};
  const byFlag: Record<number, Record<string, number[]>> = {};
  for (const [key, at] of index) {
    const def = ir.definitions[key]!;
    const own = compile(key, def.constraints, def.module);
    if (own.length) byDefinition[at] = own;
    if (def.kind === 'flag') continue;
    for (const flag of def.flags) {
      const flagDef = ir.definitions[flag.def]!;
      const ids = [
        ...compile(flag.def, flagDef.constraints, flagDef.module),
        ...compile(`${key}@${flag.name}`, flag.constraints, def.module),
      ];
      if (ids.length) (byFlag[at] ??= {})[flag.name] = ids;
    }
  }
  corrector.assertAllUsed();
  return { version: ir.version, rules, byDefinition, byFlag };
}

const started = performance.now();
mkdirSync(generatedFile('constraints/'), { recursive: true });
let total = 0;
for (const version of SUPPORTED_VERSIONS) {
  const ir = JSON.parse(readFileSync(generatedFile(`ir/v${version}.json`), 'utf8')) as ModelIR;
  const table = compileRelease(ir);
  total += table.rules.length;
  writeFileSync(generatedFile(`constraints/v${version}.json`), JSON.stringify(table));
}
console.log(
  `constraints: compiled ${total} rules of ${SUPPORTED_VERSIONS.length} OSCAL releases in ${Math.round(performance.now() - started)} ms`,
);
