/**
 * Hostile content in a real browser (issue 20): documents whose markup, titles, props, hrefs and
 * attachment file names carry script are stored over the API, then opened in headless Chromium
 * signed in as admin. Every payload, were it ever to run, leaves a trace this test watches for: it
 * sets window.__pwned, calls alert(), requests a /pwned-… URL or navigates. Render-time loads, CSP
 * violations and markup of the document's own in the DOM count as failures too, since the CSP
 * catching something means document text reached the page as markup. The detector is proven
 * first, on pages made deliberately unsafe, so that a quiet run means something.
 *
 * The server runs with --reject-level CRITICAL, so that constraint findings (props with names a
 * model does not list, unresolvable imports) do not keep hostile documents out: the schema (URI
 * syntax, tokens) still applies, which is why hrefs here are valid URIs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page, Response } from 'playwright-core';
import { WEB_POLICY } from '../src/http/security-headers.js';
import { Browser, screenshot, type PageProblems } from './support/browser.js';
import { api } from './support/http.js';
import { stopWithin } from './support/lifecycle.js';
import { TestServer } from './support/server.js';
import { CONTENT } from './support/shared.js';

// ---------------------------------------------------------------------------------------------
// Payloads. `where` names the place a payload sits in, so a trace says which one ran.

/** The path every payload requests: no page of the depot links there. */
const MARK = '/pwned-';

function run(where: string): string {
  return `window.__pwned='${where}';fetch('${MARK}${where}');alert('${where}')`;
}
/** The same, for a context that is itself single-quoted. */
function runDq(where: string): string {
  return run(where).replace(/'/g, '"');
}
function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** Raw HTML that runs, loads or navigates if it is ever parsed as markup. */
function rawHtml(where: string): string {
  return [
    `<script>${run(`${where}-script`)}</script>`,
    `<img src="${MARK}${where}-img" onerror="${run(`${where}-onerror`)}">`,
    `<svg onload="${run(`${where}-svg`)}"><script>${run(`${where}-svg-script`)}</script></svg>`,
    `<iframe srcdoc="<script>parent.${run(`${where}-srcdoc`)}</script>"></iframe>`,
    `<a href="javascript:${run(`${where}-raw-a`)}" autofocus onfocus="${run(`${where}-onfocus`)}">raw-a</a>`,
    `<details open ontoggle="${run(`${where}-ontoggle`)}">d</details>`,
    `<object data="${MARK}${where}-object"></object>`,
    `<link rel="stylesheet" href="${MARK}${where}-link">`,
    `<style>@import '${MARK}${where}-style';</style>`,
    `<meta http-equiv="refresh" content="0;url=${MARK}${where}-meta">`,
    `<base href="${MARK}${where}-base/">`,
  ].join(' ');
}

/** Text built to close the attribute or element it is written into. */
function breakouts(where: string): string {
  return [
    `"><img src="${MARK}${where}-dq" onerror="${run(`${where}-dq`)}">`,
    `'><img src='${MARK}${where}-sq' onerror='${runDq(`${where}-sq`)}'>`,
    `" autofocus onfocus="${run(`${where}-dq-attr`)}" x="`,
    `' autofocus onfocus='${runDq(`${where}-sq-attr`)}' x='`,
    `</title></textarea></style><script>${run(`${where}-close`)}</script>`,
  ].join(' ');
}

/** A script-carrying SVG: what an attachment or a data: image could hold. */
function svg(where: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50" onload="${run(`${where}-onload`)}">` +
    `<script>${run(`${where}-script`)}</script><text x="5" y="30">${where}</text></svg>`
  );
}

/** Script URLs, each valid URI syntax (the schema insists on that for hrefs). */
function scriptUrls(where: string): string[] {
  return [
    `javascript:${run(`${where}-js`)}`,
    `JaVaScRiPt:${run(`${where}-js-case`)}`,
    `javascript://%0A${run(`${where}-js-comment`)}`,
    `data:text/html;base64,${b64(`<script>${run(`${where}-data`)}</script>`)}`,
    `data:text/html,%3Cscript%3E${encodeURIComponent(run(`${where}-data-plain`))}%3C/script%3E`,
    `data:image/svg+xml;base64,${b64(svg(`${where}-data-svg`))}`,
    `vbscript:msgbox(1)`,
  ];
}

/**
 * Hrefs that are relative references as a URI parser reads them, and script only to a careless
 * writer of HTML (one that does not escape `&`); they stay links, so the click pass follows them.
 * They carry no /pwned- path: following one is an ordinary navigation within the site.
 */
const RELATIVE_LOOKALIKES = [`&#106;avascript:alert('entity')`, `&#x6A;avascript:alert('hex-entity')`];

/** OSCAL Markdown: script links in every form Markdown has, beside raw HTML. */
function markdown(where: string, multiline: boolean): string {
  const line = [
    rawHtml(`${where}-html`),
    `[md-js](javascript:${run(`${where}-md-js`)})`,
    `[md-case](JaVaScRiPt:${run(`${where}-md-case`)})`,
    `[md-data](data:text/html;base64,${b64(`<script>${run(`${where}-md-data`)}</script>`)})`,
    `[md-vb](vbscript:msgbox(1))`,
    `[md-entity](&#106;avascript:${run(`${where}-md-entity`)})`,
    `[md-tab](jav&#x09;ascript:${run(`${where}-md-tab`)})`,
    `[md-newline](java&#10;script:${run(`${where}-md-newline`)})`,
    `[md-comment](javascript://%0A${run(`${where}-md-comment`)})`,
    `![md-img-js](javascript:${run(`${where}-md-img`)})`,
    `![md-img-svg](data:image/svg+xml;base64,${b64(svg(`${where}-md-img-svg`))})`,
    `<javascript:${run(`${where}-md-autolink`)}>`,
    `[md-title](#x "\\" onmouseover=\\"${run(`${where}-md-title`)}")`,
  ].join(' ');
  if (!multiline) return line;
  return [
    line,
    `[md-ref][ref-${where}]`,
    `| a | ${rawHtml(`${where}-cell`).replace(/\|/g, '\\|')} |\n|:--|--:|\n| <b>b</b> | c |`,
    '```html\n<script>' + run(`${where}-fence`) + '</script>\n```',
    `[ref-${where}]: javascript:${run(`${where}-md-refdef`)}`,
  ].join('\n\n');
}

/** A string for a plain-text or markup-line field: raw HTML and break-outs, one line. */
function line(where: string): string {
  return `${rawHtml(where)} ${breakouts(where)}`;
}

const LAST_MODIFIED = '2024-01-01T00:00:00Z';

function props(where: string): Record<string, string>[] {
  return [
    { name: 'label', value: breakouts(`${where}-label`) },
    { name: 'marking', value: line(`${where}-prop`), class: 'hostile' },
  ];
}

function links(where: string): Record<string, string>[] {
  return [...scriptUrls(where), ...RELATIVE_LOOKALIKES].map((href, i) => ({
    href,
    rel: 'reference',
    'media-type': breakouts(`${where}-${i}-media`),
    text: markdown(`${where}-${i}-text`, false),
  }));
}

function metadata(where: string): Record<string, unknown> {
  return {
    'title': `${line(`${where}-title`)} ${markdown(`${where}-title-md`, false)}`,
    'last-modified': LAST_MODIFIED,
    'version': line(`${where}-version`),
    'oscal-version': '1.1.2',
    'props': props(`${where}-meta`),
    'links': links(`${where}-meta-link`),
    'roles': [{ id: 'hostile-role', title: line(`${where}-role`) }],
    'parties': [{ uuid: '11111111-1111-4111-8111-111111111111', type: 'person', name: line(`${where}-party`) }],
    'remarks': markdown(`${where}-remarks`, true),
  };
}

const SVG_RESOURCE_UUID = '22222222-2222-4222-8222-222222222222';

function backMatter(where: string): Record<string, unknown> {
  return {
    resources: [
      {
        'uuid': SVG_RESOURCE_UUID,
        'title': line(`${where}-resource`),
        'description': markdown(`${where}-resource`, true),
        'citation': { text: line(`${where}-citation`) },
        'rlinks': [...scriptUrls(`${where}-rlink`), ...RELATIVE_LOOKALIKES].map((href) => ({
          href,
          'media-type': 'text/html',
        })),
        // A file carried in the document itself, which the API's attachment route serves decoded.
        'base64': {
          // The schema makes this name a token: no room for a break-out here (uploads have one).
          'filename': `${where}-base64.svg`,
          'media-type': 'image/svg+xml',
          'value': b64(svg(`${where}-base64`)),
        },
      },
    ],
  };
}

function hostileCatalog(): Record<string, unknown> {
  const w = 'cat';
  return {
    catalog: {
      'uuid': '33333333-3333-4333-8333-333333333333',
      'metadata': metadata(w),
      'params': [
        {
          id: 'cat_prm',
          label: line(`${w}-param-label`),
          guidelines: [{ prose: markdown(`${w}-guideline`, true) }],
          select: { choice: [line(`${w}-choice`), markdown(`${w}-choice-md`, false)] },
        },
      ],
      'groups': [
        {
          id: 'hg',
          title: line(`${w}-group`),
          props: props(`${w}-group`),
          parts: [{ name: 'overview', prose: markdown(`${w}-group-part`, true) }],
          controls: [
            {
              id: 'hc-1',
              title: `${line(`${w}-control`)} ${markdown(`${w}-control-md`, false)}`,
              params: [{ id: 'hc-1_prm_1', label: line(`${w}-p1`), values: [breakouts(`${w}-p1-value`)] }],
              props: props(`${w}-control`),
              links: [...links(`${w}-control-link`), { href: `#${SVG_RESOURCE_UUID}`, rel: 'reference' }],
              parts: [
                {
                  id: 'hc-1_smt',
                  name: 'statement',
                  prose: `${markdown(`${w}-statement`, true)} {{ insert: param, hc-1_prm_1 }} {{ insert: param, cat_prm }}`,
                  parts: [
                    { id: 'hc-1_smt.a', name: 'item', title: line(`${w}-item`), prose: markdown(`${w}-item`, true) },
                  ],
                },
                { id: 'hc-1_gdn', name: 'guidance', prose: markdown(`${w}-guidance`, true) },
              ],
              controls: [{ id: 'hc-1.1', title: line(`${w}-enhancement`), props: props(`${w}-enh`) }],
            },
          ],
        },
      ],
      'back-matter': backMatter(w),
    },
  };
}

function hostileProfile(): Record<string, unknown> {
  const w = 'prof';
  return {
    profile: {
      'uuid': '77777777-7777-4777-8777-777777777777',
      'metadata': metadata(w),
      'imports': [...scriptUrls(`${w}-import`), ...RELATIVE_LOOKALIKES, `#${SVG_RESOURCE_UUID}`].map((href) => ({
        href,
        'include-controls': [{ 'with-ids': ['ac-1'] }],
      })),
      'merge': { 'as-is': true },
      'modify': {
        'set-parameters': [
          {
            'param-id': 'ac-1_prm_2',
            'select': { choice: [line(`${w}-set-choice`), markdown(`${w}-set-choice-md`, false)] },
          },
          {
            'param-id': 'ac-1_prm_1',
            'label': line(`${w}-set-label`),
            'values': [breakouts(`${w}-set-value`)],
            'guidelines': [{ prose: markdown(`${w}-set-guideline`, true) }],
            'props': props(`${w}-set`),
            'links': links(`${w}-set-link`),
          },
        ],
        'alters': [
          {
            'control-id': 'ac-1',
            'removes': [{ 'by-name': 'guidance' }],
            'adds': [
              {
                position: 'ending',
                title: line(`${w}-add-title`),
                props: props(`${w}-add`),
                links: links(`${w}-add-link`),
                parts: [{ name: 'guidance', title: line(`${w}-add-part`), prose: markdown(`${w}-add-part`, true) }],
              },
            ],
          },
        ],
      },
      'back-matter': backMatter(w),
    },
  };
}

function hostileComponentDefinition(): Record<string, unknown> {
  const w = 'comp';
  return {
    'component-definition': {
      'uuid': '88888888-8888-4888-8888-888888888888',
      'metadata': metadata(w),
      'components': [
        {
          'uuid': '99999999-9999-4999-8999-999999999999',
          'type': line(`${w}-type`),
          'title': line(`${w}-component`),
          'description': markdown(`${w}-description`, true),
          'purpose': markdown(`${w}-purpose`, false),
          'props': props(`${w}-component`),
          'links': links(`${w}-component-link`),
          'control-implementations': [
            {
              'uuid': 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
              'source': `javascript:${run(`${w}-source`)}`,
              'description': markdown(`${w}-ci`, true),
              'props': props(`${w}-ci`),
              'links': links(`${w}-ci-link`),
              'implemented-requirements': [
                {
                  'uuid': 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
                  'control-id': 'ac-1',
                  'description': markdown(`${w}-ir`, true),
                  'props': props(`${w}-ir`),
                  'links': links(`${w}-ir-link`),
                  'statements': [
                    {
                      'statement-id': 'ac-1_smt',
                      'uuid': 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
                      'description': markdown(`${w}-stmt`, true),
                    },
                  ],
                  'remarks': markdown(`${w}-ir-remarks`, true),
                },
              ],
            },
          ],
          'remarks': markdown(`${w}-component-remarks`, true),
        },
      ],
      'capabilities': [
        {
          uuid: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
          name: line(`${w}-capability`),
          description: markdown(`${w}-capability`, true),
        },
      ],
      'back-matter': backMatter(w),
    },
  };
}

/** NIST's SSP example with hostile metadata, profile import, system text and back-matter. */
function hostileSsp(): Record<string, unknown> {
  const w = 'ssp';
  const path = join(CONTENT, 'oscal-content@88bb8de', 'examples', 'ssp', 'json', 'ssp-example.json');
  const content = JSON.parse(readFileSync(path, 'utf8')) as { 'system-security-plan': Record<string, any> };
  const ssp = content['system-security-plan'];
  ssp['uuid'] = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
  ssp['metadata'] = { ...ssp['metadata'], ...metadata(w) };
  ssp['import-profile'] = { href: `javascript:${run(`${w}-import-profile`)}`, remarks: markdown(`${w}-import`, true) };
  const characteristics = ssp['system-characteristics'];
  characteristics['system-name'] = line(`${w}-system-name`);
  characteristics['description'] = markdown(`${w}-system-description`, true);
  characteristics['props'] = [...(characteristics['props'] ?? []), ...props(`${w}-system`)];
  characteristics['links'] = links(`${w}-system-link`);
  const component = ssp['system-implementation']['components'][0];
  component['title'] = line(`${w}-component`);
  component['description'] = markdown(`${w}-component`, true);
  const requirement = ssp['control-implementation']['implemented-requirements'][0];
  requirement['remarks'] = markdown(`${w}-requirement`, true);
  ssp['back-matter'] = {
    resources: [...(ssp['back-matter']?.['resources'] ?? []), ...(backMatter(w)['resources'] as unknown[])],
  };
  return content;
}

// XML: the same kinds of payload as OSCAL XML writes them, where markup is elements, so script
// can only come as escaped text, CDATA, or `a`/`img` elements with script URLs.

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;');
}

/** OSCAL XML markup (inline content) with script in every form it can hold. */
function xmlInline(where: string): string {
  const urls = scriptUrls(`${where}-x`);
  return [
    xmlText(line(`${where}-xml-escaped`)),
    `<![CDATA[${line(`${where}-xml-cdata`)}]]>`,
    ...urls.map((u, i) => `<a href="${xmlAttr(u)}">xml-a-${i}</a>`),
    ...RELATIVE_LOOKALIKES.map((u, i) => `<a href="${xmlAttr(u)}">xml-lookalike-${i}</a>`),
    `<img src="${xmlAttr(urls[0]!)}" alt="${xmlAttr(breakouts(`${where}-img-alt`))}"/>`,
    `<img src="${xmlAttr(urls[3]!)}" alt="xml-img-data"/>`,
    `<em>${xmlText(rawHtml(`${where}-em`))}</em>`,
    `<code>${xmlText(`<script>${run(`${where}-code`)}</script>`)}</code>`,
  ].join(' ');
}

function xmlMultiline(where: string): string {
  return (
    `<p>${xmlInline(where)}</p>` +
    `<pre>${xmlText(`<script>${run(`${where}-pre`)}</script>`)}</pre>` +
    `<table><tr><th>${xmlText(rawHtml(`${where}-th`))}</th></tr><tr><td>${xmlInline(`${where}-td`)}</td></tr></table>`
  );
}

function xmlMetadata(where: string): string {
  return `<metadata>
    <title>${xmlInline(`${where}-title`)}</title>
    <last-modified>${LAST_MODIFIED}</last-modified>
    <version>${xmlText(line(`${where}-version`))}</version>
    <oscal-version>1.1.2</oscal-version>
    <prop name="label" value="${xmlAttr(breakouts(`${where}-prop`))}"/>
    ${scriptUrls(`${where}-link`)
      .map(
        (u, i) => `<link href="${xmlAttr(u)}" rel="reference"><text>${xmlInline(`${where}-link-${i}`)}</text></link>`,
      )
      .join('\n    ')}
    <remarks>${xmlMultiline(`${where}-remarks`)}</remarks>
  </metadata>`;
}

function xmlBackMatter(where: string): string {
  return `<back-matter>
    <resource uuid="${SVG_RESOURCE_UUID}">
      <title>${xmlInline(`${where}-resource`)}</title>
      <description>${xmlMultiline(`${where}-resource`)}</description>
      ${scriptUrls(`${where}-rlink`)
        .map((u) => `<rlink href="${xmlAttr(u)}"/>`)
        .join('')}
      <base64 filename="${where}-base64.svg" media-type="image/svg+xml">${b64(svg(`${where}-base64`))}</base64>
    </resource>
  </back-matter>`;
}

/**
 * Besides the payloads, a stylesheet instruction: the depot keeps an XML document's bytes as
 * sent, and a browser shown them applies such an instruction unless something stops it.
 */
function hostileCatalogXml(): string {
  const w = 'xcat';
  const xsl = `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/"><html><body><script>${run(`${w}-xslt`)}</script></body></html></xsl:template></xsl:stylesheet>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="data:text/xsl;base64,${b64(xsl)}"?>
<catalog xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="33333333-3333-4333-8333-333333333334">
  ${xmlMetadata(w)}
  <group id="hg">
    <title>${xmlInline(`${w}-group`)}</title>
    <control id="hc-1">
      <title>${xmlInline(`${w}-control`)}</title>
      <prop name="label" value="${xmlAttr(breakouts(`${w}-control-label`))}"/>
      ${scriptUrls(`${w}-control-link`)
        .map(
          (u) =>
            `<link href="${xmlAttr(u)}" rel="reference"><text>${xmlInline(`${w}-control-link-text`)}</text></link>`,
        )
        .join('')}
      <part id="hc-1_smt" name="statement">${xmlMultiline(`${w}-statement`)}</part>
    </control>
  </group>
  ${xmlBackMatter(w)}
</catalog>
`;
}

function hostileComponentDefinitionXml(): string {
  const w = 'xcomp';
  return `<?xml version="1.0" encoding="UTF-8"?>
<component-definition xmlns="http://csrc.nist.gov/ns/oscal/1.0" uuid="88888888-8888-4888-8888-888888888889">
  ${xmlMetadata(w)}
  <component uuid="99999999-9999-4999-8999-999999999998" type="software">
    <title>${xmlInline(`${w}-component`)}</title>
    <description>${xmlMultiline(`${w}-description`)}</description>
    <prop name="marking" value="${xmlAttr(line(`${w}-prop`))}"/>
    <link href="${xmlAttr(scriptUrls(`${w}-component-link`)[0]!)}"><text>${xmlInline(`${w}-link`)}</text></link>
    <control-implementation uuid="aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaab" source="${xmlAttr(scriptUrls(`${w}-source`)[3]!)}">
      <description>${xmlMultiline(`${w}-ci`)}</description>
      <implemented-requirement uuid="bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbc" control-id="ac-1">
        <description>${xmlMultiline(`${w}-ir`)}</description>
      </implemented-requirement>
    </control-implementation>
  </component>
  ${xmlBackMatter(w)}
</component-definition>
`;
}

// ---------------------------------------------------------------------------------------------
// The detector.

interface Watched {
  page: Page;
  problems: PageProblems;
  /** Anything that could only come from a payload: dialogs, /pwned- requests, popups, off-site requests. */
  traces: string[];
  /** Main-frame navigations since the last reset. */
  navigations: string[];
  /** Every request since the last reset. */
  requests: string[];
  downloads: string[];
}

let server: TestServer;
let browser: Browser;
let origin: string;

async function watchedPage(): Promise<Watched> {
  const { page, problems } = await browser.newPage();
  const watched: Watched = { page, problems, traces: [], navigations: [], requests: [], downloads: [] };
  page.on('dialog', (dialog) => {
    watched.traces.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('request', (request) => {
    const url = request.url();
    watched.requests.push(url);
    if (URL.canParse(url) && new URL(url).pathname.startsWith(MARK)) watched.traces.push(`request ${url}`);
  });
  page.on('popup', (popup) => watched.traces.push(`popup ${popup.url()}`));
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) watched.navigations.push(frame.url());
  });
  page.on('download', (download) => watched.downloads.push(download.suggestedFilename()));
  // Nothing leaves loopback: a request elsewhere is a trace, and is refused.
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.fallback();
    watched.traces.push(`off-site request ${url}`);
    return route.abort();
  });
  return watched;
}

/** What a payload leaves in the page itself: window.__pwned in any frame. */
async function pwnedValues(page: Page): Promise<string[]> {
  const values: string[] = [];
  for (const frame of page.frames()) {
    const value = await frame.evaluate('String(window.__pwned)').catch(() => 'undefined');
    if (value !== 'undefined') values.push(`__pwned=${value} in ${frame.url()}`);
  }
  return values;
}

/**
 * Markup of the document's own in the DOM, whether or not it ran: elements that run, load or
 * navigate, event-handler and loading attributes, script URLs as link targets. Runs in the page,
 * as text, since this project compiles without the DOM's types.
 */
const DOM_CHECK = `(() => {
  const found = [];
  const FORBIDDEN = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'img', 'image', 'picture',
    'video', 'audio', 'source', 'style', 'link', 'meta', 'base', 'form', 'math', 'template', 'noscript', 'textarea',
    'button', 'select', 'details', 'dialog', 'marquee', 'applet']);
  const LOADING = new Set(['style', 'src', 'srcset', 'srcdoc', 'action', 'formaction', 'autofocus', 'background',
    'poster', 'data', 'xlink:href', 'ping']);
  for (const el of document.querySelectorAll('main *')) {
    const tag = el.localName;
    // The page's own forms (the attachments page has one) post to the page's own paths.
    const form = el.closest('form');
    if (form && (form.getAttribute('action') || '').startsWith('/documents/')) continue;
    // The page's own metadata disclosure is the one such element the views write.
    const own = tag === 'details' && el.id === 'metadata' && el.classList.contains('metadata');
    if (FORBIDDEN.has(tag) && !own) found.push('element <' + tag + '>: ' + el.outerHTML.slice(0, 160));
    if (tag === 'input' && el.id !== 'catalog-filter') found.push('element ' + el.outerHTML.slice(0, 160));
    for (const attr of el.attributes) {
      if (/^on/i.test(attr.name) || LOADING.has(attr.name.toLowerCase()))
        found.push('attribute ' + attr.name + ' on <' + tag + '>: ' + el.outerHTML.slice(0, 160));
    }
    if (tag === 'a' && el.hasAttribute('href')) {
      const raw = el.getAttribute('href');
      if (/^(javascript|data|vbscript):/i.test(raw.replace(/[\\u0000-\\u0020]/g, '')) ||
          ['javascript:', 'data:', 'vbscript:'].includes(el.protocol))
        found.push('script link ' + raw.slice(0, 120));
    }
  }
  for (const el of document.querySelectorAll('script:not([src^="/assets/"]), iframe, object, embed, base, meta[http-equiv]'))
    found.push('in the document: ' + el.outerHTML.slice(0, 160));
  return found;
})()`;

async function markupInDom(page: Page): Promise<string[]> {
  return (await page.evaluate(DOM_CHECK)) as string[];
}

/** Everything a payload could have left, in one list, so an assertion failure shows all of it. */
async function evidence(watched: Watched, expectedUrl?: string): Promise<string[]> {
  const { page } = watched;
  const found = [
    ...watched.traces,
    ...(await pwnedValues(page)),
    ...watched.problems.cspViolations.map((v) => `CSP violation: ${v}`),
    ...watched.problems.consoleErrors.map((e) => `console error: ${e}`),
  ];
  if (expectedUrl !== undefined && page.url() !== expectedUrl) found.push(`navigated to ${page.url()}`);
  return found;
}

function reset(watched: Watched): void {
  watched.traces.length = 0;
  watched.navigations.length = 0;
  watched.requests.length = 0;
  watched.problems.cspViolations.length = 0;
  watched.problems.consoleErrors.length = 0;
}

/** Lets a refresh of 0 s, a fetch or a timer in a payload happen before anything is checked. */
async function settle(page: Page, ms = 150): Promise<void> {
  await page.waitForLoadState('load').catch(() => undefined);
  await page.waitForTimeout(ms);
  await page.waitForLoadState('load').catch(() => undefined);
}

async function open(watched: Watched, url: string): Promise<Response | null> {
  reset(watched);
  const response = await watched.page.goto(url, { waitUntil: 'load' });
  await settle(watched.page);
  return response;
}

// ---------------------------------------------------------------------------------------------

before(async () => {
  server = await TestServer.start({ args: ['--reject-level', 'CRITICAL'] });
  origin = server.url;
  browser = await Browser.launch();
  // Signed in as the sign-in form would leave it: the admin token in the HttpOnly cookie.
  const { page } = await browser.newPage();
  await page
    .context()
    .addCookies([{ name: 'depotToken', value: server.adminToken(), url: server.url, httpOnly: true, sameSite: 'Lax' }]);
  await page.close();
});

after(async () => {
  await browser?.close();
  await stopWithin(server);
});

async function store(model: string, body: string, contentType: string): Promise<string> {
  const created = await api(server.url, 'POST', `/oscal/v1/${model}`, {
    token: server.adminToken(),
    body,
    contentType,
  });
  assert.equal(created.status, 201, created.text.slice(0, 2000));
  return created.json()[`${model}-list`][0]['content-uuid'];
}

describe('the detector sees script that runs', () => {
  test('on about:blank: __pwned and the dialog', async () => {
    const watched = await watchedPage();
    await watched.page.setContent(`<p>self-check</p><img src="x" onerror="${run('selfcheck-blank')}">`);
    await settle(watched.page);
    const found = await evidence(watched);
    assert.ok(found.includes('__pwned=selfcheck-blank in about:blank'), found.join('\n'));
    assert.ok(found.includes('dialog alert: selfcheck-blank'), found.join('\n'));
    await watched.page.close();
  });

  test('on a page of the server origin without a policy: every kind of trace', async () => {
    const watched = await watchedPage();
    const { page } = watched;
    const selfcheck = `${origin}/selfcheck/open`;
    await page.route(`${origin}/selfcheck/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<main><h1>self-check</h1><p>${rawHtml('selfcheck-open').replace(/<meta[^>]*>|<base[^>]*>/g, '')}</p>
          <a id="js" href="javascript:${run('selfcheck-click')}">click</a>
          <a id="nav" href="javascript:location='${MARK}selfcheck-nav'">nav</a></main>`,
      }),
    );
    await open(watched, selfcheck);
    let found = await evidence(watched, selfcheck);
    for (const expected of [
      '__pwned=',
      'dialog alert: selfcheck-open-script',
      `request ${origin}${MARK}selfcheck-open-script`,
      `request ${origin}${MARK}selfcheck-open-img`,
    ])
      assert.ok(
        found.some((f) => f.startsWith(expected)),
        `${expected} among:\n${found.join('\n')}`,
      );
    const markup = await markupInDom(page);
    for (const tag of ['script', 'img', 'svg', 'iframe', 'object'])
      assert.ok(
        markup.some((m) => m.startsWith(`element <${tag}>`)),
        `<${tag}> found:\n${markup.join('\n')}`,
      );
    assert.ok(markup.some((m) => m.startsWith('script link javascript:')));

    reset(watched);
    await page.click('#js');
    await settle(page);
    found = await evidence(watched, selfcheck);
    assert.ok(found.includes('dialog alert: selfcheck-click'), found.join('\n'));

    reset(watched);
    await page.click('#nav');
    await settle(page);
    found = await evidence(watched, selfcheck);
    assert.ok(found.includes(`navigated to ${origin}${MARK}selfcheck-nav`), found.join('\n'));
    assert.ok(found.includes(`request ${origin}${MARK}selfcheck-nav`), found.join('\n'));
    await page.close();
  });

  test('a meta refresh is a navigation; an off-site load is refused and reported', async () => {
    const watched = await watchedPage();
    const selfcheck = `${origin}/selfcheck/refresh`;
    await watched.page.route(`${origin}/selfcheck/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<img src="http://offsite.invalid/x.png"><meta http-equiv="refresh" content="0;url=${MARK}selfcheck-meta">`,
      }),
    );
    await open(watched, selfcheck);
    const found = await evidence(watched, selfcheck);
    assert.ok(found.includes(`navigated to ${origin}${MARK}selfcheck-meta`), found.join('\n'));
    assert.ok(found.includes('off-site request http://offsite.invalid/x.png'), found.join('\n'));
    await watched.page.close();
  });

  test("under the web pages' own policy: what does not run still shows as CSP violations, loads and markup", async () => {
    const watched = await watchedPage();
    const selfcheck = `${origin}/selfcheck/csp`;
    await watched.page.route(`${origin}/selfcheck/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        headers: { 'content-security-policy': WEB_POLICY },
        // No refresh here: the page has to stay for its DOM to be read.
        body: `<main><p>${rawHtml('selfcheck-csp').replace(/<meta[^>]*>/g, '')}</p></main>`,
      }),
    );
    await open(watched, selfcheck);
    const found = await evidence(watched);
    assert.ok(!found.some((f) => f.startsWith('__pwned=')), 'the policy stops the script itself');
    assert.ok(found.filter((f) => f.startsWith('CSP violation')).length >= 2, found.join('\n'));
    // img-src 'self' lets the image load: a payload's request is seen even where its script is not.
    assert.ok(found.includes(`request ${origin}${MARK}selfcheck-csp-img`), found.join('\n'));
    const markup = await markupInDom(watched.page);
    assert.ok(markup.length > 5, markup.join('\n'));
    await watched.page.close();
  });
});

// ---------------------------------------------------------------------------------------------

interface Case {
  name: string;
  model: string;
  body: () => string;
  contentType: string;
  /** Text the page must show, proving the payloads were rendered (as text) and not dropped. */
  shows: string[];
}

const SCRIPT_TEXT = "<script>window.__pwned='";

const CASES: Case[] = [
  {
    name: 'a catalog (JSON, tree view)',
    model: 'catalog',
    body: () => JSON.stringify(hostileCatalog()),
    contentType: 'application/json',
    shows: [SCRIPT_TEXT, '"><img src="/pwned-cat-control-label-dq"', 'md-js'],
  },
  {
    name: 'a catalog (XML: escaped script, CDATA, script links as elements)',
    model: 'catalog',
    body: hostileCatalogXml,
    contentType: 'application/xml',
    shows: [SCRIPT_TEXT, 'xml-a-0', '<img src="/pwned-xcat-title-xml-cdata-img"'],
  },
  {
    name: 'a profile (JSON, profile view)',
    model: 'profile',
    body: () => JSON.stringify(hostileProfile()),
    contentType: 'application/json',
    shows: [SCRIPT_TEXT, 'javascript:window.__pwned='],
  },
  {
    name: 'a component definition (JSON, generic view)',
    model: 'component-definition',
    body: () => JSON.stringify(hostileComponentDefinition()),
    contentType: 'application/json',
    shows: [SCRIPT_TEXT, 'md-js'],
  },
  {
    name: 'a component definition (XML, generic view)',
    model: 'component-definition',
    body: hostileComponentDefinitionXml,
    contentType: 'application/xml',
    shows: [SCRIPT_TEXT, 'xml-a-0'],
  },
  {
    name: 'a system security plan (JSON, generic view)',
    model: 'system-security-plan',
    body: () => JSON.stringify(hostileSsp()),
    contentType: 'application/json',
    shows: [SCRIPT_TEXT, 'md-js'],
  },
];

/** Links to follow: not the page's own downloads, not off to http(s), not anchors within the page. */
const CLICKABLE = 'main a[href]:not([download])';

/**
 * Every pointer and focus event a person's hovering and tabbing would fire, on every link at once
 * from within the page: an event handler that reached the DOM would run on these as on real ones.
 */
async function hoverAndFocusEveryLink(watched: Watched): Promise<number> {
  return (await watched.page.evaluate(`(() => {
    const links = Array.from(document.querySelectorAll('main a[href], main .unsafe-link'));
    for (const link of links) {
      for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'mousemove'])
        link.dispatchEvent(new MouseEvent(type, { bubbles: true }));
      if (typeof link.focus === 'function') link.focus();
      link.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    }
    return links.length;
  })()`)) as number;
}

/**
 * Clicks each link that is neither http(s) nor an anchor within the page, and each unsafe link
 * shown as text. A click may navigate within the site (a relative href is a page of it, likely a
 * 404); it may never run anything, leave the site, or fetch a /pwned- URL.
 */
async function clickEveryOtherLink(watched: Watched, url: string, label: string): Promise<string[]> {
  const { page } = watched;
  const hrefs = (await page.evaluate(
    `Array.from(document.querySelectorAll(${JSON.stringify(CLICKABLE)}), (a) => a.getAttribute('href'))`,
  )) as string[];
  const clicked: string[] = [];
  for (let i = 0; i < hrefs.length; i++) {
    const href = hrefs[i]!;
    // The page's own navigation (its tabs, its list) is the site's, not the document's: other tests follow it.
    const own = /^\/(documents|browse)\//.test(href);
    // A plain path can only lead to a page of this site; what is clicked is what a payload could hide in.
    const plain = /^[\w./-]*$/.test(href);
    if (/^https?:/i.test(href) || href.startsWith('#') || own || plain || clicked.includes(href)) continue;
    assert.doesNotMatch(href.replace(/[\u0000-\u0020]/g, ''), /^(javascript|data|vbscript):/i, `${label}: ${href}`);
    // Each click starts on the page itself, opened again: the click before may have navigated
    // only after it was checked, and the next link would then be looked for on that other page.
    await open(watched, url);
    const link = page.locator(CLICKABLE).nth(i);
    if (await link.isVisible()) await link.click({ timeout: 2000 });
    else await link.dispatchEvent('click');
    // A click that navigates may commit after the click returns, later still on a loaded machine.
    await page.waitForURL((u) => u.href !== url, { timeout: 2000 }).catch(() => undefined);
    await settle(page);
    // A relative lookalike leads to a page of this site that does not exist, and a hostile
    // profile's resolved view cannot be made: pages with a 4xx status, which Chromium logs, at
    // times only while the evidence is being gathered.
    const found = (await evidence(watched)).filter((e) => !/^console error: .*status of 4\d\d/.test(e));
    assert.deepEqual(found, [], `${label}: clicking ${href}`);
    assert.ok(page.url().startsWith(`${origin}/`) || page.url() === url, `${label}: ${href} led to ${page.url()}`);
    clicked.push(href);
  }
  // Unsafe links are shown as text: a click on one can only reach a handler, so all are clicked at once.
  await open(watched, url);
  const spans = (await page.evaluate(`(() => {
    const spans = Array.from(document.querySelectorAll('main .unsafe-link'));
    for (const span of spans) span.click();
    return spans.length;
  })()`)) as number;
  await settle(page);
  assert.deepEqual(await evidence(watched, url), [], `${label}: clicking ${spans} unsafe links shown as text`);
  return clicked;
}

async function assertInert(watched: Watched, url: string, label: string, response: Response | null): Promise<void> {
  const { page } = watched;
  assert.equal(response?.status(), 200, `${label}: ${url}`);
  assert.equal(response?.headers()['content-security-policy'], WEB_POLICY, `${label}: the page carries the policy`);
  assert.deepEqual(await evidence(watched, url), [], `${label}: nothing ran, loaded or navigated`);
  assert.deepEqual(watched.navigations, [url], `${label}: one navigation, to the page itself`);
  // On load the page fetches itself and its own assets, nothing a document names.
  const loads = watched.requests.filter((r) => r !== url && !r.startsWith(`${origin}/assets/`));
  assert.deepEqual(loads, [], `${label}: loads beside the page and its assets`);
  assert.deepEqual(await markupInDom(page), [], `${label}: document markup in the DOM`);
}

const stored = new Map<string, { model: string; id: string }>();

describe('hostile documents open inert', () => {
  for (const c of CASES) {
    test(c.name, async (t) => {
      const id = await store(c.model, c.body(), c.contentType);
      stored.set(c.name, { model: c.model, id });
      const url = `${origin}/documents/${c.model}/${id}`;
      const watched = await watchedPage();
      const { page } = watched;
      const response = await open(watched, url);
      await assertInert(watched, url, c.name, response);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const shown of c.shows) assert.ok(text.includes(shown), `${c.name}: shows ${shown}`);
      const slug = `hostile-${c.model}-${c.contentType.split('/')[1]}`;
      await screenshot(page, slug, { fullPage: true });

      reset(watched);
      const hovered = await hoverAndFocusEveryLink(watched);
      await settle(page);
      assert.deepEqual(await evidence(watched, url), [], `${c.name}: hovering and focusing ${hovered} links`);

      if (c.model === 'catalog') {
        // The filter script reads the page: typing a payload into it must stay a search.
        reset(watched);
        await page.getByLabel('Filter controls').fill(`<img src=${MARK}filter onerror=${run('filter')}>`);
        await settle(page);
        assert.deepEqual(await evidence(watched, url), [], `${c.name}: the filter`);
        await page.getByLabel('Filter controls').fill('javascript');
        await settle(page);
        await screenshot(page, `${slug}-filtered`);
        await page.getByLabel('Filter controls').fill('');
      }

      const clicked = await clickEveryOtherLink(watched, url, c.name);
      t.diagnostic(`${hovered} links hovered and focused; followed: ${clicked.join(' | ') || 'none'}`);
      await page.close();
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Attachments: script-carrying files under names built to break out of attributes.

/** Script for a file name: no "/", which the depot takes as a path and cuts the name at. */
function runInName(where: string): string {
  return `window.__pwned='${where}';alert('${where}')`;
}

const ATTACHMENTS = [
  {
    name: `"><img src=x onerror="${runInName('name-svg')}">.svg`,
    mediaType: 'image/svg+xml',
    body: svg('attachment-svg'),
  },
  {
    name: `' onmouseover='${runInName('name-html').replace(/'/g, '"')}' x='<b onclick="${runInName('name-html-b')}">.html`,
    mediaType: 'text/html',
    body: `<!doctype html><title>t</title><script>${run('attachment-html')}</script><img src=x onerror="${run('attachment-html-img')}">`,
  },
];

/** A quoted-string for Content-Disposition: quotes and backslashes escaped. */
function quoted(name: string): string {
  return `"${name.replace(/["\\]/g, '\\$&')}"`;
}

describe('attachments', () => {
  let model: string;
  let id: string;
  const uploaded: { uuid: string; name: string; mediaType: string }[] = [];

  before(async () => {
    model = 'component-definition';
    id = await store(
      model,
      JSON.stringify(hostileComponentDefinition()).replace(/88888888-8888/g, '12121212-1212'),
      'application/json',
    );
    for (const file of ATTACHMENTS) {
      const res = await api(server.url, 'POST', `/oscal/v1/${model}/${id}/attachment`, {
        token: server.adminToken(),
        body: file.body,
        contentType: file.mediaType,
        headers: { 'content-disposition': `attachment; filename=${quoted(file.name)}` },
      });
      assert.equal(res.status, 201, res.text);
      uploaded.push({ uuid: res.json().uuid, name: file.name, mediaType: file.mediaType });
    }
  });

  test('the document page, its resources titled by the file names, is inert', async () => {
    const url = `${origin}/documents/${model}/${id}`;
    const watched = await watchedPage();
    const response = await open(watched, url);
    await assertInert(watched, url, 'attachments', response);
    const text = (await watched.page.locator('main').textContent()) ?? '';
    for (const file of ATTACHMENTS) assert.ok(text.includes(file.name), `the page names ${file.name} as text`);
    await screenshot(watched.page, 'hostile-attachments-document', { fullPage: true });
    await clickEveryOtherLink(watched, url, 'attachments');
    await watched.page.close();
  });

  test("the API's download URLs: downloads, and nothing runs even shown inline", async (t) => {
    // The embedded base64 SVG of the back-matter is served by the same route.
    for (const file of [...uploaded, { uuid: SVG_RESOURCE_UUID, name: 'base64 resource' }]) {
      const path = `/oscal/v1/${model}/${id}/attachment/${file.uuid}`;
      const head = await api(server.url, 'GET', path, { token: server.adminToken() });
      assert.equal(head.status, 200);
      await assertFileInert(t, `${origin}${path}`, file.name, head);
    }
  });

  test('the web attachments page and its downloads', async (t) => {
    const path = `/documents/${model}/${id}/attachments`;
    const url = `${origin}${path}`;
    const cookie = `depotToken=${server.adminToken()}`;
    const probe = await api(server.url, 'GET', path, { accept: 'text/html', headers: { cookie } });
    if (probe.status === 404) {
      t.skip('no /documents/<model>/<id>/attachments page yet: this case runs once it exists');
      return;
    }
    const watched = await watchedPage();
    const { page } = watched;
    const response = await open(watched, url);
    await assertInert(watched, url, 'attachments page', response);
    // Titles are kept as Markdown text, whose escapes (\<, \[) a reader sees here.
    const text = ((await page.locator('main').textContent()) ?? '').replace(/\\/g, '');
    for (const file of ATTACHMENTS) assert.ok(text.includes(file.name), `the page names ${file.name} as text`);
    await screenshot(page, 'hostile-attachments-page', { fullPage: true });
    reset(watched);
    await hoverAndFocusEveryLink(watched);
    await settle(page);
    assert.deepEqual(await evidence(watched, url), [], 'hovering and focusing');
    await clickEveryOtherLink(watched, url, 'attachments page');

    // Its downloads, clicked as a person would, then each opened as the checks above open the API's.
    const downloads = (await page.evaluate(
      `Array.from(document.querySelectorAll('main a[download]'), (a) => a.getAttribute('href'))`,
    )) as string[];
    assert.ok(downloads.length >= ATTACHMENTS.length, `download links: ${downloads.join(' ')}`);
    for (let i = 0; i < downloads.length; i++) {
      reset(watched);
      const download = page.waitForEvent('download', { timeout: 5000 });
      await page.locator('main a[download]').nth(i).click();
      t.diagnostic(`clicked ${downloads[i]}: downloaded ${(await download).suggestedFilename()}`);
      await settle(page, 150);
      assert.deepEqual(await evidence(watched, url), [], `clicking ${downloads[i]}`);
    }
    await page.close();
    for (const href of downloads) {
      const head = await api(server.url, 'GET', href, { headers: { cookie } });
      assert.equal(head.status, 200, href);
      await assertFileInert(t, `${origin}${href}`, href, head);
    }
  });
});

/**
 * A file served by the depot: sent as a download with a policy that keeps script off, opened in
 * the browser (a download, nothing run), then shown inline after all (Content-Disposition taken
 * away on its way to the browser) under the policy it was served with: still nothing run. The
 * same file inline without the policy must run, which proves the payload live.
 */
async function assertFileInert(
  t: { diagnostic(message: string): void },
  url: string,
  label: string,
  head: { headers: Record<string, string | string[] | undefined> },
): Promise<void> {
  const disposition = String(head.headers['content-disposition']);
  const policy = String(head.headers['content-security-policy']);
  t.diagnostic(
    `${label}: ${head.headers['content-type']}; Content-Disposition ${disposition}; CSP ${policy}; ${head.headers['x-content-type-options']}`,
  );
  assert.match(disposition, /^attachment;/, `${label}: sent as a download`);
  // Both the API's and the web's downloads are sandboxed: shown anyway, a file runs nothing and is of no origin.
  assert.equal(policy, 'sandbox', `${label}: with a policy that runs nothing, should it be shown`);

  const authorization = { authorization: `Bearer ${server.adminToken()}` };
  const watched = await watchedPage();
  await watched.page.setExtraHTTPHeaders(authorization);
  reset(watched);
  const download = watched.page.waitForEvent('download', { timeout: 5000 }).catch(() => undefined);
  // Chromium does not show a download as a page: goto fails with "Download is starting".
  await watched.page.goto(url).catch(() => undefined);
  const got = await download;
  await settle(watched.page);
  t.diagnostic(`${label}: the browser ${got ? `downloaded it as ${got.suggestedFilename()}` : 'showed it'}`);
  assert.deepEqual(await evidence(watched), [], `${label}: nothing ran on opening ${url}`);
  await watched.page.close();

  for (const keepPolicy of [true, false]) {
    const inline = await watchedPage();
    await inline.page.setExtraHTTPHeaders(authorization);
    await inline.page.route(url, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-disposition'];
      if (!keepPolicy) delete headers['content-security-policy'];
      await route.fulfill({ response, headers });
    });
    await open(inline, url);
    const found = await evidence(inline);
    if (keepPolicy) {
      // The policy's refusals are its work, not the file's script running: reported, not failed.
      const ran = found.filter((f) => !f.startsWith('console error') && !f.startsWith('CSP violation'));
      assert.deepEqual(ran, [], `${label}: shown inline under the policy it was served with`);
      const refusals = found.map((f) => f.replace(/^(CSP violation|console error): /, '').slice(0, 90));
      t.diagnostic(`${label} inline: ${refusals.join(' / ') || 'quiet'}`);
    } else {
      assert.ok(
        found.some((f) => f.startsWith('__pwned=') || f.startsWith('dialog')),
        `${label}: without the policy the file's script runs, so the check above means something:\n${found.join('\n')}`,
      );
    }
    await inline.page.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The XML as sent, which the API serves as application/xml: a browser shown it would apply its
// xml-stylesheet instruction (a data: XSLT that writes a script) unless the API's policy stops it.

test('the XML original with a stylesheet instruction, opened from the API, runs nothing', async (t) => {
  const entry = stored.get(CASES[1]!.name);
  if (entry === undefined) {
    t.skip('the XML catalog was not stored (its case failed)');
    return;
  }
  const watched = await watchedPage();
  await watched.page.setExtraHTTPHeaders({ authorization: `Bearer ${server.adminToken()}` });
  const url = `${origin}/oscal/v1/catalog/${entry.id}/original`;
  const response = await open(watched, url);
  t.diagnostic(
    `served as ${response?.headers()['content-type']}, disposition ${response?.headers()['content-disposition'] ?? 'none'}, CSP ${response?.headers()['content-security-policy']}`,
  );
  const found = await evidence(watched, url);
  t.diagnostic(`what the browser reported: ${found.join(' / ') || 'nothing'}`);
  const ran = found.filter((f) => !f.startsWith('console error') && !f.startsWith('CSP violation'));
  assert.deepEqual(ran, [], 'no script ran, nothing navigated');
  await screenshot(watched.page, 'hostile-catalog-xml-original');
  await watched.page.close();
});
