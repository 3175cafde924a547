/**
 * Metaschema constraint validation of OSCAL documents: the constraints of the release a
 * document declares (compiled at build time), and external constraint sets on top.
 *
 *   const { findings, outcomes } = await checkConstraints(doc, { sets, loader, base });
 */
import type { ParsedDocument } from '../formats/document.js';
import { Dynamic, DocumentNeeded, documentNode } from '../metapath/index.js';
import { modelFor } from '../model/model.js';
import type { ImportLoader } from '../resolve/index.js';
import { LoadedDocuments, MAX_DOCUMENTS, type ProfileResolver } from './documents.js';
import { ConstraintRun, type ConstraintResult } from './evaluate.js';
import type { ConstraintSet } from './model.js';
import { modelConstraints } from './tables.js';

export type { ProfileResolver } from './documents.js';
export type { ConstraintResult, RuleOutcome } from './evaluate.js';
export type { Finding } from './findings.js';
export { LEVELS, severity, type Constraint, type ConstraintSet, type Level } from './model.js';

export interface ConstraintOptions {
  /** External constraint sets, applied after the model's own constraints. */
  sets?: readonly ConstraintSet[];
  /** Where doc() and resolve-profile() load from; without one they find nothing. */
  loader?: ImportLoader;
  /** How resolve-profile() resolves, when not through `loader` each time. */
  resolveProfile?: ProfileResolver;
  /** The document's own location: the base its relative references resolve against. */
  base?: string;
  now?: Date;
}

export async function checkConstraints(
  doc: ParsedDocument,
  options: ConstraintOptions = {},
): Promise<ConstraintResult> {
  const node = documentNode(doc, options.base);
  const documents = new LoadedDocuments({ doc, node, base: options.base }, options.loader, options.resolveProfile);
  const model = modelConstraints(doc.version);
  const namespace = modelFor(doc.version).namespace;
  // Each round reads one more document that the previous one asked for.
  for (let round = 0; ; round++) {
    const dynamic = new Dynamic({
      documents,
      ...(options.base !== undefined ? { baseUri: options.base } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    try {
      return new ConstraintRun(node, model, options.sets ?? [], dynamic, namespace).run();
    } catch (e) {
      if (!(e instanceof DocumentNeeded) || round > MAX_DOCUMENTS * 2) throw e;
      await documents.fetch(e);
    }
  }
}
