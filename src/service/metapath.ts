import type { Identity } from '../auth/identity.js';
import { refuse } from '../errors.js';
import { compileMetapath, MetapathError } from '../oscal/metapath/index.js';
import type { BlobStore, RevisionStore } from '../store/types.js';
import { ContentGone, retryWhenGone, revisionRecord } from './content.js';
import type { DocumentService } from './documents.js';
import { expressionProblem, problemText, type ResultSequence } from './metapath-items.js';
import { MetapathProcesses, type Cost, type ProcessLimits } from './metapath-processes.js';

export interface MetapathLimits extends ProcessLimits {
  /** Items an answer gives at most (the count is of all). */
  maxItems: number;
  /** Characters of one atomic value an answer gives at most. */
  maxValueLength: number;
}

/** The bounds of one evaluation on the server (docs/decisions/0102-metapath-server-bounds.md). */
export const METAPATH_LIMITS: MetapathLimits = {
  maxItems: 1000,
  maxValueLength: 10_000,
  processes: 2,
  timeLimitMs: 5000,
  memoryMb: 256,
  idleMs: 60_000,
};

const COSTS: Record<Cost, string> = {
  time: `was still running after ${METAPATH_LIMITS.timeLimitMs / 1000} s`,
  memory: 'needed more memory than this server gives an expression',
  recursion: 'recursed too deeply',
};

/**
 * Checks an expression without a document: it parses, and every function, variable and prefix it
 * names exists (XPath's static errors); 400 naming where in the expression it went wrong otherwise.
 */
export function checkExpression(expression: string): void {
  try {
    compileMetapath(expression);
  } catch (e) {
    if (e instanceof MetapathError)
      throw refuse(
        'invalid-expression',
        `the expression is not valid Metapath ${problemText(expressionProblem(e, expression))}`,
      );
    // The parser descends once per parenthesis: thousands of them nested overflow its stack.
    if (e instanceof RangeError)
      throw refuse('invalid-expression', 'the expression is not valid Metapath: it is nested too deeply');
    throw e;
  }
}

/**
 * Metapath over a stored document (GET /{model}/{id}/metapath): the expression evaluated with the
 * current revision's document node as the context, in a child process bounded in time and memory.
 * Reading the answer is reading the document: 404 for whoever may not.
 */
export class MetapathService {
  private readonly processes: MetapathProcesses;

  constructor(
    private readonly store: RevisionStore & BlobStore,
    private readonly documents: DocumentService,
    private readonly limits: MetapathLimits = METAPATH_LIMITS,
  ) {
    this.processes = new MetapathProcesses(limits);
  }

  async evaluateStored(
    identity: Identity,
    model: string,
    id: string,
    expression: string,
    maxItems = this.limits.maxItems,
  ): Promise<ResultSequence & { revision: number }> {
    checkExpression(expression);
    const { revision, hash, canonical } = await retryWhenGone(async () => {
      const { doc } = await this.documents.readable(identity, model, id);
      const record = await revisionRecord(this.store, id, doc.revision);
      const gzip = await this.store.getBlob(record.canonicalHash);
      if (!gzip) throw new ContentGone(`blob ${record.canonicalHash} is gone`);
      return { revision: record.number, hash: record.canonicalHash, canonical: gzip };
    });
    const answer = await this.processes.evaluate({
      expression,
      hash,
      canonical,
      limits: { maxItems: Math.min(maxItems, this.limits.maxItems), maxValueLength: this.limits.maxValueLength },
    });
    if ('result' in answer) return { revision, ...answer.result };
    if ('error' in answer) {
      const problem = expressionProblem(answer.error, expression);
      throw refuse('expression-failed', `the expression failed ${problemText(problem)}`);
    }
    if ('tooCostly' in answer)
      throw refuse(
        'expression-too-costly',
        `the expression ${COSTS[answer.tooCostly]} and was stopped; narrow it (a path to fewer nodes, a smaller range)`,
      );
    throw new Error(`a Metapath evaluation failed: ${answer.failure}`);
  }
}
