import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as jsYaml from 'js-yaml';
import * as yamlLib from 'yaml';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { medians, REV5_CATALOG, row } from './measure.js';

const ROUNDS = 21;
const read = (format: string) =>
  readFileSync(join(REV5_CATALOG, format, `NIST_SP-800-53_rev5_catalog.${format}`), 'utf8');

/** XML in both directions against JSON.parse + JSON.stringify of the same catalog. */
export function xmlBench(): void {
  const xml = read('xml');
  const json = read('json');
  const results = medians(
    [
      { name: 'floor', run: () => JSON.stringify(JSON.parse(json)) },
      { name: 'xml->json', run: () => JSON.stringify(parseOscal(xml, 'xml').content) },
      { name: 'json->xml', run: () => serializeOscal(parseOscal(json, 'json'), 'xml') },
    ],
    ROUNDS,
  );
  const ms = (name: string) => results.get(name)!;
  console.log(
    `\n== XML: NIST SP 800-53 rev5 catalog (XML ${(xml.length / 1e6).toFixed(1)} MB, JSON ${(json.length / 1e6).toFixed(1)} MB), median of ${ROUNDS}`,
  );
  console.log(row('floor: JSON.parse + JSON.stringify', ms('floor'), ms('floor'), 'floor'));
  console.log(row('XML -> JSON', ms('xml->json'), ms('floor'), 'floor', 'target < 50 ms'));
  console.log(row('JSON -> XML', ms('json->xml'), ms('floor'), 'floor', 'target < 50 ms'));
}

/** YAML in both directions against the same floor and against the YAML libraries' bare load and dump. */
export function yamlBench(): void {
  const yaml = read('yaml');
  const json = read('json');
  const object = JSON.parse(json);
  const doc = parseOscal(json, 'json');
  const results = medians(
    [
      { name: 'floor', run: () => JSON.stringify(JSON.parse(json)) },
      { name: 'yaml->json', run: () => JSON.stringify(parseOscal(yaml, 'yaml').content) },
      { name: 'json->yaml', run: () => serializeOscal(parseOscal(json, 'json'), 'yaml') },
      { name: 'yaml read', run: () => parseOscal(yaml, 'yaml') },
      { name: 'yaml write', run: () => serializeOscal(doc, 'yaml') },
      { name: 'js-yaml load', run: () => jsYaml.load(yaml) },
      { name: 'js-yaml dump', run: () => jsYaml.dump(object) },
      { name: 'yaml parse', run: () => yamlLib.parse(yaml) },
      { name: 'yaml stringify', run: () => yamlLib.stringify(object) },
    ],
    ROUNDS,
  );
  const ms = (name: string) => results.get(name)!;
  const fastest = (a: string, b: string) => (ms(a) <= ms(b) ? a : b);
  const load = fastest('js-yaml load', 'yaml parse');
  const dump = fastest('js-yaml dump', 'yaml stringify');
  console.log(
    `\n== YAML: NIST SP 800-53 rev5 catalog (YAML ${(yaml.length / 1e6).toFixed(1)} MB), median of ${ROUNDS}`,
  );
  console.log(row('floor: JSON.parse + JSON.stringify', ms('floor'), ms('floor'), 'floor'));
  console.log(row('YAML -> JSON', ms('yaml->json'), ms('floor'), 'floor'));
  console.log(row('JSON -> YAML', ms('json->yaml'), ms('floor'), 'floor'));
  // Like for like: YAML text to the checked, typed OSCAL object vs a bare load to an object, and
  // that object to YAML text vs a bare dump of it.
  console.log(
    row(
      'read YAML vs fastest bare load',
      ms('yaml read'),
      ms(load),
      `${load} (${ms(load).toFixed(1)} ms)`,
      'target <= 1.00x',
    ),
  );
  console.log(
    row(
      'write YAML vs fastest bare dump',
      ms('yaml write'),
      ms(dump),
      `${dump} (${ms(dump).toFixed(1)} ms)`,
      'target <= 1.00x',
    ),
  );
  console.log(
    `  (libraries: js-yaml load ${ms('js-yaml load').toFixed(1)} ms, yaml parse ${ms('yaml parse').toFixed(1)} ms, js-yaml dump ${ms('js-yaml dump').toFixed(1)} ms, yaml stringify ${ms('yaml stringify').toFixed(1)} ms)`,
  );
}
