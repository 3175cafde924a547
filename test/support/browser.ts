/**
 * Headless Debian Chromium (/usr/bin/chromium, installed by scripts/ensure-chromium.sh) driven by
 * playwright-core, for tests of the web interface as a person sees it. Every page records console
 * errors, uncaught exceptions and Content-Security-Policy violations, so a test can assert that
 * none happened; screenshots go to test-results/ui/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = fileURLToPath(new URL('../../../test-results/ui/', import.meta.url));

/** No network beyond the server under test, nothing from a previous run (bench/web-browser.ts launches alike). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Runs in the page (as text: this project compiles without the DOM's types). */
const REPORT_CSP_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) => {
  globalThis.__depotCspViolation(
    event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber,
  );
});`;

/** What went wrong on a page: each entry says what and where. */
export interface PageProblems {
  consoleErrors: string[];
  cspViolations: string[];
}

export class Browser {
  private constructor(
    private readonly context: BrowserContext,
    private readonly profile: string,
  ) {}

  /** A fresh profile each time: no cookies, cache or state from another test. */
  static async launch(): Promise<Browser> {
    const profile = mkdtempSync(join(tmpdir(), 'oscal-depot-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
    return new Browser(context, profile);
  }

  /** A new tab whose problems are recorded from its first document on. */
  async newPage(): Promise<{ page: Page; problems: PageProblems }> {
    const page = await this.context.newPage();
    const problems: PageProblems = { consoleErrors: [], cspViolations: [] };
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = `${message.text()} (${message.location().url})`;
      // Chromium reports a blocked inline script or style as a console error too.
      if (/Content Security Policy/i.test(message.text())) problems.cspViolations.push(text);
      else problems.consoleErrors.push(text);
    });
    page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
    // The page's own securitypolicyviolation events, reported from an init script (which the policy does not cover).
    await page.exposeBinding('__depotCspViolation', (_source, text: string) => problems.cspViolations.push(text));
    await page.addInitScript({ content: REPORT_CSP_VIOLATIONS });
    return { page, problems };
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/**
 * The most of a page a full-page screenshot shows: ten screens down, two across. A hostile
 * document's page can be tens of thousands of pixels each way (payload text that does not wrap),
 * and encoding all of it took seconds per screenshot, for pixels nobody scrolls through.
 */
const FULL_PAGE_MAX = { width: 2 * 1280, height: 10 * 900 };

/**
 * A screenshot at test-results/ui/<name>.png, of the viewport or the whole page (up to
 * FULL_PAGE_MAX, from its top left); the path is returned for the test's message.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  if (!options.fullPage) {
    await page.screenshot({ path });
    return path;
  }
  const [width, height] = (await page.evaluate(
    '[document.documentElement.scrollWidth, document.documentElement.scrollHeight]',
  )) as [number, number];
  const clip = {
    x: 0,
    y: 0,
    width: Math.min(width, FULL_PAGE_MAX.width),
    height: Math.min(height, FULL_PAGE_MAX.height),
  };
  await page.screenshot({ path, fullPage: true, ...(width > clip.width || height > clip.height ? { clip } : {}) });
  return path;
}
