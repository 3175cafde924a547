/** Documents and URIs (F&O 14.6, 2.5): doc(), doc-available(), resolve-uri(), static-base-uri(). */
import { DocumentNeeded, NS, type Ctx } from '../context.js';
import { MetapathError } from '../errors.js';
import { EMPTY, type MetaNode } from '../items.js';
import { oneString, optString } from './args.js';
import { define } from './registry.js';

/** The document `href` names, resolved against the static base URI; null when it cannot be had. */
function documentAt(href: string, ctx: Ctx): MetaNode | null {
  const access = ctx.dyn.documents;
  if (!access) return null;
  const uri = absolute(href, ctx);
  const found = access.get(uri);
  if (found === undefined) throw new DocumentNeeded(uri);
  return found;
}

/**
 * fn:doc-available: true for any resource that can be read at `href`, an image as well as an
 * OSCAL document, as metaschema-java has it (FnDocumentAvailable.java); fn:doc still needs a document.
 */
function availableAt(href: string, ctx: Ctx): boolean {
  const access = ctx.dyn.documents;
  if (!access) return false;
  if (!access.available) return documentAt(href, ctx) !== null;
  const uri = absolute(href, ctx);
  const found = access.available(uri);
  if (found === undefined) throw new DocumentNeeded(uri);
  return found;
}

function absolute(href: string, ctx: Ctx): string {
  return href.startsWith('#') ? href : resolve(href, ctx.dyn.baseUri);
}

function resolve(relative: string, base: string | undefined): string {
  try {
    return new URL(relative, base).href;
  } catch {
    if (base === undefined) return relative;
    throw new MetapathError('FORG0002', `"${relative}" cannot be resolved against the base URI ${base}`);
  }
}

define(NS.fn, {
  doc: [
    1,
    ([href], ctx) => {
      const uri = optString(href!, 'fn:doc', 0);
      if (uri === undefined) return EMPTY;
      const node = documentAt(uri, ctx);
      if (node === null) {
        const reason = ctx.dyn.documents?.reason?.(uri);
        throw new MetapathError('FODC0002', `the document "${uri}" cannot be retrieved${reason ? `: ${reason}` : ''}`);
      }
      return [node];
    },
  ],
  'doc-available': [
    1,
    ([href], ctx) => {
      const uri = optString(href!, 'fn:doc-available', 0);
      return [uri !== undefined && availableAt(uri, ctx)];
    },
  ],
  'resolve-uri': [
    [1, 2],
    ([relative, base], ctx) => {
      const rel = optString(relative!, 'fn:resolve-uri', 0);
      if (rel === undefined) return EMPTY;
      const against = base === undefined ? ctx.dyn.baseUri : oneString(base, 'fn:resolve-uri', 1);
      if (against === undefined && !/^[a-z][a-z0-9+.-]*:/i.test(rel)) {
        throw new MetapathError('FONS0005', `"${rel}" is relative and there is no base URI to resolve it against`);
      }
      return [resolve(rel, against)];
    },
  ],
  'static-base-uri': [0, (_, ctx) => (ctx.dyn.baseUri === undefined ? EMPTY : [ctx.dyn.baseUri])],
});
