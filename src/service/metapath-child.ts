/**
 * A process of MetapathProcesses: evaluates one expression at a time over a stored document's JSON
 * form, keeping the last document's node tree so that the next expression over it starts at once.
 */
import { gunzipSync } from 'node:zlib';
import { parseOscal } from '../oscal/formats/index.js';
import { compileMetapath, documentNode, MetapathError, type MetaNode } from '../oscal/metapath/index.js';
import { resultSequence } from './metapath-items.js';
import type { EvaluationAnswer, EvaluationJob } from './metapath-processes.js';

let held: { hash: string; root: MetaNode } | undefined;

function rootOf(job: EvaluationJob): MetaNode {
  if (held?.hash !== job.hash) {
    held = undefined;
    const doc = parseOscal(gunzipSync(job.canonical).toString('utf8'), 'json');
    held = { hash: job.hash, root: documentNode(doc) };
  }
  return held.root;
}

function answer(job: EvaluationJob): EvaluationAnswer {
  try {
    const root = rootOf(job);
    return { result: resultSequence(compileMetapath(job.expression).evaluate(root), job.limits) };
  } catch (e) {
    if (e instanceof MetapathError) return { error: { code: e.code, message: e.message, position: e.position } };
    // Recursion without end (a function that calls itself) overflows the stack: a cost, like time and memory.
    if (e instanceof RangeError && /call stack/.test(e.message)) return { tooCostly: 'recursion' };
    return { failure: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

process.on('message', (job: EvaluationJob) => process.send!(answer(job)));
// The server is gone: so is the reason to stay.
process.on('disconnect', () => process.exit(0));
