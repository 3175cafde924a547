import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { diffDocuments, type DiffReport } from '../src/oscal/diff/index.js';
import { parseOscal, type Format, type ParsedDocument } from '../src/oscal/formats/index.js';
import { median, medians, REV5_CATALOG, row, SHARED } from './measure.js';

const ROUNDS = 21;
const TARGET_MS = 100;
const REV5_88BB8DE = join(SHARED, 'content', 'oscal-content@88bb8de', 'nist.gov', 'SP800-53', 'rev5');

interface Side {
  label: string;
  file: string;
  format: Format;
}

interface Pair {
  label: string;
  older: Side;
  newer: Side;
  target?: number;
}

/** One of NIST's rev5 files; `name` is how the report calls it. */
const rev5 = (dir: string, release: string, file: string, name: string, format: Format): Side => ({
  label: `${name} ${release} ${format.toUpperCase()}`,
  file: join(dir, format, `NIST_SP-800-53_rev5_${file}.${format}`),
  format,
});
const CATALOG = rev5(REV5_CATALOG, 'a849dbc', 'catalog', 'catalog', 'json');

const PAIRS: Pair[] = [
  // The acceptance case: a release apart, OSCAL 1.0.0 against 1.1.2, and JSON against XML.
  {
    label: 'catalog vs HIGH resolved',
    older: CATALOG,
    newer: rev5(REV5_88BB8DE, '88bb8de', 'HIGH-baseline-resolved-profile_catalog', 'HIGH resolved', 'xml'),
    target: TARGET_MS,
  },
  // The same comparison within one release, where the resolved catalog is the catalog less the
  // controls HIGH leaves out: mostly removals, few changed values.
  {
    label: 'catalog vs HIGH resolved, one release',
    older: CATALOG,
    newer: rev5(REV5_CATALOG, 'a849dbc', 'HIGH-baseline-resolved-profile_catalog', 'HIGH resolved', 'json'),
  },
  {
    label: 'LOW resolved vs LOW resolved',
    older: rev5(REV5_CATALOG, 'a849dbc', 'LOW-baseline-resolved-profile_catalog', 'LOW resolved', 'json'),
    newer: rev5(REV5_88BB8DE, '88bb8de', 'LOW-baseline-resolved-profile_catalog', 'LOW resolved', 'json'),
  },
  // Two separate parses, so that nothing can be skipped because both sides are one object: every
  // value is visited and found equal.
  { label: 'catalog vs itself (equal)', older: CATALOG, newer: CATALOG },
];

/**
 * gc() for the heap figures only, taken after all the timing: forced collections between timed
 * runs would measure recompilation (see medians()).
 */
function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * The heap in use only grows between collections, so its peak is either just before one of the
 * collections during the diff or at the end. Garbage not yet collected counts: it is what the
 * process holds. Against the heap after a full collection with both documents parsed.
 */
function heapOfOneDiff(gc: () => void, older: ParsedDocument, newer: ParsedDocument) {
  gc();
  const base = getHeapStatistics().used_heap_size;
  const profiler = new GCProfiler();
  profiler.start();
  const report = diffDocuments(older, newer);
  const end = getHeapStatistics().used_heap_size;
  const collections = profiler.stop()?.statistics ?? [];
  const peak = Math.max(end, ...collections.map((c) => c.beforeGC.heapStatistics.usedHeapSize));
  gc();
  // Clamped: a collection can free a little more than the diff left behind.
  const retained = Math.max(0, getHeapStatistics().used_heap_size - base);
  // The report is still referenced here, so the collection above left it in the heap.
  return { peakMb: (peak - base) / 1e6, retainedMb: retained / 1e6, report };
}

function counts(report: DiffReport): string {
  const c = report.summary.counts;
  const catalog = report.summary.catalog;
  const kinds = `${c.added} added, ${c.removed} removed, ${c.moved} moved, ${c.changed} changed`;
  if (!catalog) return kinds;
  return (
    `${kinds}; controls ${catalog.controlsAdded.length} added, ${catalog.controlsRemoved.length} removed, ` +
    `${catalog.controlsWithdrawn.length} newly withdrawn; ${catalog.statementsChanged.length} statements and ` +
    `${catalog.parametersChanged.length} parameters changed`
  );
}

/**
 * Each diff of two documents already parsed, against parsing both from text already in memory
 * (parseOscal, in their own formats), measured round-robin in the same run.
 */
export function diffBench(): void {
  const loaded = PAIRS.map((pair) => {
    const older = readFileSync(pair.older.file, 'utf8');
    const newer = readFileSync(pair.newer.file, 'utf8');
    return {
      pair,
      text: { older, newer },
      parsed: { older: parseOscal(older, pair.older.format), newer: parseOscal(newer, pair.newer.format) },
    };
  });
  const results = medians(
    loaded.flatMap(({ pair, text, parsed }) => [
      {
        name: `floor ${pair.label}`,
        run: () => [parseOscal(text.older, pair.older.format), parseOscal(text.newer, pair.newer.format)],
      },
      { name: `diff ${pair.label}`, run: () => diffDocuments(parsed.older, parsed.newer) },
    ]),
    ROUNDS,
  );
  const ms = (name: string) => results.get(name)!;
  const gc = exposedGc();
  console.log(
    `\n== Semantic diff: SP 800-53 rev5 catalogs, parsed, against parsing both (parseOscal), median of ${ROUNDS}`,
  );
  for (const { pair, text, parsed } of loaded) {
    const floor = ms(`floor ${pair.label}`);
    const diff = ms(`diff ${pair.label}`);
    const mb = (s: string) => `${(s.length / 1e6).toFixed(1)} MB`;
    console.log(
      `${pair.label}: ${pair.older.label} (${mb(text.older)}, OSCAL ${parsed.older.version}) -> ` +
        `${pair.newer.label} (${mb(text.newer)}, OSCAL ${parsed.newer.version})`,
    );
    console.log(row('  floor: parse both', floor, floor, 'floor'));
    const target =
      pair.target === undefined ? undefined : `target < ${pair.target} ms: ${diff < pair.target ? 'met' : 'MISSED'}`;
    console.log(row('  diff', diff, floor, 'floor', target));
    const heaps = [0, 1, 2].map(() => heapOfOneDiff(gc, parsed.older, parsed.newer));
    const report = heaps[0]!.report;
    console.log(
      `  heap during one diff: peak +${median(heaps.map((h) => h.peakMb)).toFixed(0)} MB, ` +
        `report retains ${median(heaps.map((h) => h.retainedMb)).toFixed(1)} MB (median of ${heaps.length})`,
    );
    console.log(`  ${report.changes.length} changes: ${counts(report)}`);
  }
}
