import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import { REV5_CATALOG } from './measure.js';

const TARGET_BYTES = 50e6;

/**
 * Grows the 800-53 catalog to about 50 MB of XML by appending copies of its groups in which every
 * id and uuid is fresh, so the result is a plausible (if repetitive) catalog, not a repeated blob.
 */
function generateLargeCatalog(dir: string): { xmlPath: string; jsonPath: string; yamlPath: string } {
  const json = readFileSync(join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json'), 'utf8');
  const content = JSON.parse(json) as { catalog: { groups: unknown[] } };
  const groups = JSON.stringify(content.catalog.groups);
  // Sized by our own XML of the catalog, which is indented more tightly than NIST's file.
  const ratio = TARGET_BYTES / serializeOscal(parseOscal(json, 'json'), 'xml').length;
  for (let copy = 1; copy < Math.ceil(ratio); copy++) {
    const fresh = groups
      .replace(/"id":"([^"]+)"/g, (_, id: string) => `"id":"${id}-copy${copy}"`)
      .replace(/"uuid":"[^"]+"/g, () => `"uuid":"${randomUUID()}"`);
    content.catalog.groups.push(...(JSON.parse(fresh) as unknown[]));
  }
  const doc = parseOscal(JSON.stringify(content), 'json');
  const xmlPath = join(dir, 'large-catalog.xml');
  const jsonPath = join(dir, 'large-catalog.json');
  const yamlPath = join(dir, 'large-catalog.yaml');
  writeFileSync(xmlPath, serializeOscal(doc, 'xml'));
  writeFileSync(jsonPath, serializeOscal(doc, 'json'));
  writeFileSync(yamlPath, serializeOscal(doc, 'yaml'));
  return { xmlPath, jsonPath, yamlPath };
}

/** Each conversion runs in a fresh process so its peak RSS is its own. */
function measureInChild(direction: string, input: string): { ms: number; peakRssMb: number } {
  const worker = fileURLToPath(new URL('./large-catalog-worker.js', import.meta.url));
  const r = spawnSync(process.execPath, [worker, direction, input], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`large catalog ${direction} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

export function largeCatalogBench(): void {
  const dir = mkdtempSync(join(tmpdir(), 'oscal-bench-'));
  try {
    const { xmlPath, jsonPath, yamlPath } = generateLargeCatalog(dir);
    const [xmlMb, jsonMb, yamlMb] = [xmlPath, jsonPath, yamlPath].map((path) => statSync(path).size / 1e6) as [
      number,
      number,
      number,
    ];
    const floor = measureInChild('floor', jsonPath);
    const toJson = measureInChild('xml-to-json', xmlPath);
    const toXml = measureInChild('json-to-xml', jsonPath);
    const yamlToJson = measureInChild('yaml-to-json', yamlPath);
    console.log(
      `\n== generated large catalog: XML ${xmlMb.toFixed(1)} MB, JSON ${jsonMb.toFixed(1)} MB, YAML ${yamlMb.toFixed(1)} MB (one run each, fresh process)`,
    );
    const line = (label: string, m: { ms: number; peakRssMb: number }) =>
      console.log(
        `${label.padEnd(34)} ${m.ms.toFixed(0).padStart(8)} ms   ${(m.ms / floor.ms).toFixed(2).padStart(6)}x floor   peak RSS ${m.peakRssMb.toFixed(0)} MB (target < 1024 MB)`,
      );
    line('floor: JSON.parse + stringify', floor);
    line('XML -> JSON', toJson);
    line('JSON -> XML', toXml);
    line('YAML -> JSON', yamlToJson);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
