/**
 * The web interface (issue 20) as a person gets it: Debian's Chromium, driven by playwright-core,
 * loads pages from `oscal-depot serve` on this machine. Each load is cold (a fresh browser
 * context: empty cache, signed in by the depotToken cookie); the figures are first contentful
 * paint, interactive, load end, bytes transferred and HTML size of the 800-53 rev5 catalog page
 * and of NIST's SSP example page, beside the same figures of GET /sign-in (a minimal page of ours,
 * loaded the same way). The catalog's filter is timed inside the page, beside a no-op input round.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expectStatus, kb, line, runGroup, startDepot } from './http-harness.js';
import { decodedBody, type Client } from './http-support.js';
import { median, REV5_CATALOG, SHARED } from './measure.js';
import { coldLoad, filterRound, launchChromium, VIEWPORT, type Loaded, type LoadFigures } from './web-browser.js';

const CATALOG_JSON = join(REV5_CATALOG, 'json', 'NIST_SP-800-53_rev5_catalog.json');
const SSP_JSON = join(SHARED, 'content', 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');
const FLOOR_PATH = '/sign-in';
const ROUNDS = 7;
/** Each round loads the catalog page once per first-use query, so each query's first use has ROUNDS samples. */
const FIRST_USE = ['ac-2', 'AC-2(1)', 'cryptographic'];
/** Warm steps in turn from a cleared box, each changing the count: the last clears it again. */
const WARM_STEPS = [...FIRST_USE, ''];
const WARM_CYCLES = 2;

const TARGETS = { catalogInteractive: 1500, sspPage: 500, filter: 100 };

const ms = (x: number) => `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)} ms`;
const target = (value: number, limit: number) => `target < ${limit} ms: ${value < limit ? 'met' : 'MISSED'}`;
const quoted = (query: string) => (query === '' ? 'clearing the box' : JSON.stringify(query));

/** Stores a document through the API; its id is the content-uuid the 201 lists. */
async function store(client: Client, token: string, model: string, file: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' };
  const reply = expectStatus(
    await client.send('POST', `/oscal/v1/${model}`, headers, readFileSync(file)),
    201,
    `POST ${file}`,
  );
  const created = JSON.parse(decodedBody(reply).toString('utf8')) as Record<string, { 'content-uuid': string }[]>;
  return created[`${model}-list`]![0]!['content-uuid'];
}

interface PageCase {
  label: string;
  path: string;
  loads: LoadFigures[];
  coding?: Loaded['coding'];
}

interface FilterSamples {
  toCount: number[];
  toFrame: number[];
  count: string;
}

const noSamples = (): FilterSamples => ({ toCount: [], toFrame: [], count: '' });

class Filter {
  readonly firstUse = new Map(FIRST_USE.map((q) => [q, noSamples()]));
  readonly warm = new Map(WARM_STEPS.map((q) => [q, noSamples()]));
  readonly firstUseFloor = noSamples();
  readonly warmFloor = noSamples();

  /**
   * On a freshly loaded catalog page, as soon as its load figures are read: the floor, then the
   * first use (no focus first: the index is built when the page is first idle, else by this very
   * event), then the warm steps, each followed by its floor.
   */
  async measure(loaded: Loaded, first: string): Promise<void> {
    const { page } = loaded;
    record(this.firstUseFloor, await filterRound(page, '', false));
    record(this.firstUse.get(first)!, await filterRound(page, first, true));
    await filterRound(page, '', true);
    for (let cycle = 0; cycle < WARM_CYCLES; cycle++) {
      for (const step of WARM_STEPS) {
        record(this.warm.get(step)!, await filterRound(page, step, true));
        record(this.warmFloor, await filterRound(page, step, false));
      }
    }
  }
}

function record(samples: FilterSamples, round: { toCount: number; toFrame: number; count: string }): void {
  samples.toCount.push(round.toCount);
  samples.toFrame.push(round.toFrame);
  samples.count = round.count;
}

function printLoads(c: PageCase, floor: PageCase, targets: { fcp?: number; interactive?: number }): void {
  const of = (pick: (f: LoadFigures) => number, loads: LoadFigures[]) => median(loads.map(pick));
  const figure = (label: string, pick: (f: LoadFigures) => number, limit?: number) => {
    const value = of(pick, c.loads);
    const floorValue = of(pick, floor.loads);
    line(
      label,
      ms(value),
      value / floorValue,
      `${floor.label} (${ms(floorValue)})`,
      limit === undefined ? undefined : target(value, limit),
    );
  };
  const html = of((f) => f.htmlDecoded, c.loads);
  console.log(
    `${c.label}: GET ${c.path}, HTML ${kb(html)} (${c.coding!.sent}: ${kb(of((f) => f.htmlEncoded, c.loads))} on the wire), ${c.loads[0]!.resources} resources; ${c.loads.length} loads`,
  );
  figure('first contentful paint', (f) => f.fcp, targets.fcp);
  figure('interactive (DOMContentLoaded end)', (f) => f.interactive, targets.interactive);
  figure('load event end', (f) => f.loadEnd);
  const bytes = of((f) => f.transferred, c.loads);
  const floorBytes = of((f) => f.transferred, floor.loads);
  line('bytes transferred', kb(bytes), bytes / floorBytes, `${floor.label} (${kb(floorBytes)})`);
  const floorHtml = of((f) => f.htmlDecoded, floor.loads);
  line('HTML size (decoded)', kb(html), html / floorHtml, `${floor.label} (${kb(floorHtml)})`);
}

function printFilter(label: string, samples: FilterSamples, floor: FilterSamples): void {
  console.log(`  ${label} (${samples.toCount.length} rounds): count ${JSON.stringify(samples.count)}`);
  for (const [what, pick] of [
    ['  to the count text changed', (s: FilterSamples) => s.toCount],
    ['  to the next frame rendered', (s: FilterSamples) => s.toFrame],
  ] as const) {
    const value = median(pick(samples));
    const floorValue = median(pick(floor));
    line(what, ms(value), value / floorValue, `no-op round (${ms(floorValue)})`, target(value, TARGETS.filter));
  }
}

async function measure(browser: Browser, origin: string, token: string, catalogId: string, sspId: string) {
  const floor: PageCase = { label: `GET ${FLOOR_PATH}`, path: FLOOR_PATH, loads: [] };
  const catalog: PageCase = { label: '800-53 rev5 catalog', path: `/documents/catalog/${catalogId}`, loads: [] };
  const ssp: PageCase = { label: 'SSP example', path: `/documents/system-security-plan/${sspId}`, loads: [] };
  const filter = new Filter();
  const load = async (c: PageCase, keep: boolean, then?: (loaded: Loaded) => Promise<void>) => {
    const loaded = await coldLoad(browser, origin, token, c.path);
    try {
      await then?.(loaded);
    } finally {
      await loaded.close();
    }
    if (!keep) return;
    c.loads.push(loaded.figures);
    c.coding = loaded.coding;
  };

  // The server's first render of each page (and its JIT) is not what a reader meets later.
  for (const c of [floor, ssp, catalog]) await load(c, false);
  for (let round = 0; round < ROUNDS; round++) {
    await load(floor, true);
    await load(ssp, true);
    for (const first of FIRST_USE) await load(catalog, true, (loaded) => filter.measure(loaded, first));
  }

  console.log(
    `each load in a fresh browser context (empty cache, signed in by the depotToken cookie), viewport ${VIEWPORT.width}x${VIEWPORT.height}; ${ROUNDS} rounds in turn after one unrecorded load of each page; medians`,
  );
  console.log(
    `Chromium sent Accept-Encoding: ${floor.coding!.accepted}; bytes transferred = transferSize (headers + body as sent) of the navigation and every resource entry but the favicon's`,
  );
  console.log(
    `interactive = PerformanceNavigationTiming.domContentLoadedEventEnd: the pages' scripts are defer, so they have run by then`,
  );
  printLoads(catalog, floor, { interactive: TARGETS.catalogInteractive });
  printLoads(ssp, floor, { fcp: TARGETS.sspPage, interactive: TARGETS.sspPage });

  console.log(
    `\nFilter on the 800-53 page: the box's value set and \`input\` dispatched in the page, timed with performance.now() to the count text changed and to the next frame's rendering done`,
  );
  console.log(
    `floor: a no-op round on the same page (the box's own value again: the handler returns at once), timed the same way; performance.now() steps by 0.1 ms in a page that is not cross-origin isolated`,
  );
  console.log(
    `first use, on a fresh page right after its load, with no focus before (the index is built at the page's first idle moment, else by this input):`,
  );
  for (const [query, samples] of filter.firstUse) printFilter(quoted(query), samples, filter.firstUseFloor);
  console.log(
    `warm, after the first use: ${WARM_STEPS.map(quoted).join(', ')} in turn, from a cleared box, ${WARM_CYCLES} cycles on each page:`,
  );
  for (const [query, samples] of filter.warm) printFilter(quoted(query), samples, filter.warmFloor);
}

export async function webBench(): Promise<void> {
  await runGroup('oscal-bench-web-', async (group) => {
    const dataDir = join(group.dir, 'data');
    // The pages read the stored JSON, never a rendition: with no worker, no background XML or YAML
    // rendition of the 800-53 catalog competes with the page loads for the CPUs.
    const depot = await startDepot(group, dataDir, { extraArgs: ['--workers', '0'] });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const catalogId = await store(depot.client, token, 'catalog', CATALOG_JSON);
    const sspId = await store(depot.client, token, 'system-security-plan', SSP_JSON);
    depot.client.close();
    const browser = await launchChromium();
    try {
      console.log(
        `\n== Web pages in Chromium ${browser.version()} (headless, playwright-core) on loopback (${availableParallelism()} CPUs, shared by browser and server): oscal-depot serve on a fresh data directory (SQLite), no rendition worker; floor: GET ${FLOOR_PATH} loaded the same way`,
      );
      await measure(browser, depot.origin, token, catalogId, sspId);
    } finally {
      await browser.close();
    }
  });
}
