import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as jsYaml from 'js-yaml';
import * as yamlLib from 'yaml';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { medians, REV5_CATALOG, row } from './measure.js';

/** Conversion of NIST's SP 800-53 rev5 catalog (2.1 MB XML, 3.2 MB JSON) in every direction. */
export function conversionBench(rounds = 21): void {
  const xml = readFileSync(join(REV5_CATALOG, 'xml', 'NIST_SP-800-53_rev5_catalog.xml'), 'utf8');
  const json = readFileSync(join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json'), 'utf8');
  const yaml = readFileSync(join(REV5_CATALOG, 'yaml', 'NIST_SP-800-53_rev5_catalog.yaml'), 'utf8');
  const object = JSON.parse(json);

  const results = medians([
    { name: 'floor', run: () => JSON.stringify(JSON.parse(json)) },
    { name: 'xml->json', run: () => JSON.stringify(parseOscal(xml, 'xml').content) },
    { name: 'json->xml', run: () => serializeOscal(parseOscal(json, 'json'), 'xml') },
    { name: 'yaml->json', run: () => JSON.stringify(parseOscal(yaml, 'yaml').content) },
    { name: 'json->yaml', run: () => serializeOscal(parseOscal(json, 'json'), 'yaml') },
    { name: 'js-yaml load', run: () => jsYaml.load(yaml) },
    { name: 'js-yaml dump', run: () => jsYaml.dump(object) },
    { name: 'yaml parse', run: () => yamlLib.parse(yaml) },
    { name: 'yaml stringify', run: () => yamlLib.stringify(object) },
  ], rounds);
  const ms = (name: string) => results.get(name)!;
  const floor = ms('floor');
  const loadFloor = Math.min(ms('js-yaml load'), ms('yaml parse'));
  const loadName = ms('js-yaml load') <= ms('yaml parse') ? 'js-yaml load' : 'yaml parse';
  const dumpFloor = Math.min(ms('js-yaml dump'), ms('yaml stringify'));
  const dumpName = ms('js-yaml dump') <= ms('yaml stringify') ? 'js-yaml dump' : 'yaml stringify';

  console.log(`\n== conversion: NIST SP 800-53 rev5 catalog (XML ${(xml.length / 1e6).toFixed(1)} MB, JSON ${(json.length / 1e6).toFixed(1)} MB, YAML ${(yaml.length / 1e6).toFixed(1)} MB), median of ${rounds}`);
  console.log(row('floor: JSON.parse + JSON.stringify', floor, floor, 'floor'));
  console.log(row('XML -> JSON', ms('xml->json'), floor, 'floor', 'target < 50 ms'));
  console.log(row('JSON -> XML', ms('json->xml'), floor, 'floor', 'target < 50 ms'));
  console.log(row('YAML -> JSON', ms('yaml->json'), floor, 'floor'));
  console.log(row('JSON -> YAML', ms('json->yaml'), floor, 'floor'));
  console.log(row(`YAML -> JSON vs ${loadName}`, ms('yaml->json'), loadFloor, `bare ${loadName} (${loadFloor.toFixed(1)} ms)`, 'target <= 1.00x'));
  console.log(row(`JSON -> YAML vs ${dumpName}`, ms('json->yaml'), dumpFloor, `bare ${dumpName} (${dumpFloor.toFixed(1)} ms)`, 'target <= 1.00x'));
  console.log(`  (other YAML library: js-yaml load ${ms('js-yaml load').toFixed(1)} ms, yaml parse ${ms('yaml parse').toFixed(1)} ms, js-yaml dump ${ms('js-yaml dump').toFixed(1)} ms, yaml stringify ${ms('yaml stringify').toFixed(1)} ms)`);
}
