/**
 * What the web benchmark (bench/web.ts) does in Debian's Chromium, driven by playwright-core: a
 * cold load of a page with its paint, navigation and resource timings, and a round of the catalog
 * filter timed inside the page.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/support/browser.js';

export const VIEWPORT = { width: 1280, height: 900 };
const NAVIGATION_TIMEOUT_MS = 120_000;

export function launchChromium(): Promise<Browser> {
  // As the browser tests launch it.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/** Milliseconds from navigation start, and bytes. */
export interface LoadFigures {
  fcp: number;
  interactive: number;
  loadEnd: number;
  transferred: number;
  htmlEncoded: number;
  htmlDecoded: number;
  resources: number;
}

/**
 * Runs in the page, as text (this project compiles without the DOM's types). FCP can come after
 * the load event on a page that parses quickly, so it is awaited rather than read.
 *
 * interactive is domContentLoadedEventEnd: the pages' scripts are all `defer`, which run before
 * DOMContentLoaded fires, so by its end every listener (the filter's included) is attached.
 *
 * transferred sums transferSize (response headers and body as they came over the wire) of the
 * navigation and every resource entry but the favicon's: Chromium fetches the tab's icon at a time
 * of its own, so that entry is there on some loads and not yet on others.
 */
const PAGE_FIGURES = `async () => {
  const fcp = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no first-contentful-paint within 30 s')), 30000);
    new PerformanceObserver((list, observer) => {
      const entry = list.getEntriesByName('first-contentful-paint')[0];
      if (!entry) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(entry.startTime);
    }).observe({ type: 'paint', buffered: true });
  });
  // Playwright's "load" can resolve while the load event's handlers still run, before loadEventEnd is set.
  while (performance.getEntriesByType('navigation')[0].loadEventEnd === 0) await new Promise((r) => setTimeout(r, 5));
  const nav = performance.getEntriesByType('navigation')[0];
  const icon = document.querySelector('link[rel~="icon"]');
  const resources = performance.getEntriesByType('resource').filter((r) => !icon || r.name !== icon.href);
  return {
    fcp,
    interactive: nav.domContentLoadedEventEnd,
    loadEnd: nav.loadEventEnd,
    transferred: resources.reduce((sum, r) => sum + r.transferSize, nav.transferSize),
    htmlEncoded: nav.encodedBodySize,
    htmlDecoded: nav.decodedBodySize,
    resources: resources.length,
  };
}`;

export interface Loaded {
  page: Page;
  figures: LoadFigures;
  /** How the HTML came: the Accept-Encoding Chromium sent and the Content-Encoding it got. */
  coding: { accepted: string; sent: string };
  close(): Promise<void>;
}

/** A load with an empty cache: a fresh context (its own in-memory cache), signed in by the cookie. */
export async function coldLoad(browser: Browser, origin: string, token: string, path: string): Promise<Loaded> {
  const context: BrowserContext = await browser.newContext({ viewport: VIEWPORT });
  try {
    await context.addCookies([{ name: 'depotToken', value: token, url: origin, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    const response = await page.goto(origin + path, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
    if (response?.status() !== 200) throw new Error(`GET ${path} in Chromium: HTTP ${response?.status()}`);
    const figures = (await page.evaluate(`(${PAGE_FIGURES})()`)) as LoadFigures;
    return {
      page,
      figures,
      coding: {
        accepted: (await response.request().headerValue('accept-encoding')) ?? '(none)',
        sent: (await response.headerValue('content-encoding')) ?? 'identity',
      },
      close: () => context.close(),
    };
  } catch (e) {
    await context.close();
    throw e;
  }
}

export interface FilterRound {
  /** From setting the value to the count text having changed. */
  toCount: number;
  /** To the task after the next frame's rendering (style, layout, paint on the main thread). */
  toFrame: number;
  count: string;
}

/**
 * Runs in the page: sets the filter box's value and dispatches `input`, timed with
 * performance.now(). The script filters synchronously today; a debounced one would change the
 * count later, which the observer still catches. A round whose value the box already holds is the
 * floor: the script's handler returns at once, so it times the event and the wait for a frame.
 */
const FILTER_ROUND = `async ({ value, changes }) => {
  const input = document.getElementById('catalog-filter');
  const count = document.getElementById('catalog-filter-count');
  const before = count.textContent;
  const start = performance.now();
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  if (changes && count.textContent === before) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the count did not change within 10 s')), 10000);
      const observer = new MutationObserver(() => {
        if (count.textContent === before) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve();
      });
      observer.observe(count, { childList: true, characterData: true, subtree: true });
    });
  }
  const changed = performance.now();
  // A task posted from a frame callback runs once that frame's rendering is done.
  await new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      channel.port2.postMessage(null);
    }),
  );
  return { toCount: changed - start, toFrame: performance.now() - start, count: count.textContent };
}`;

/**
 * One filter round; `changes` says whether the count must change (a real query) or must not (the
 * floor's repeat of the box's value).
 */
export async function filterRound(page: Page, value: string, changes: boolean): Promise<FilterRound> {
  const before = (await page.textContent('#catalog-filter-count')) ?? '';
  const round = (await page.evaluate(`(${FILTER_ROUND})(${JSON.stringify({ value, changes })})`)) as FilterRound;
  if (changes === (round.count === before))
    throw new Error(
      `filter ${JSON.stringify(value)}: the count went from ${JSON.stringify(before)} to ${JSON.stringify(round.count)}`,
    );
  return round;
}
