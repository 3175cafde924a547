/**
 * The error catalogue (src/errors.ts) and its documentation (docs/errors.md) say the same thing,
 * every catalogued code is raised somewhere, and refusals are made only through the catalogue.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { ERROR_CODES, refuse, StoreConflictError, storeRefusal, ServiceError } from '../src/errors.js';
import { PROJECT_ROOT } from './support/shared.js';

const SRC = join(PROJECT_ROOT, 'src');

function documentedCodes(): Map<string, number> {
  const text = readFileSync(join(PROJECT_ROOT, 'docs', 'errors.md'), 'utf8');
  const rows = [...text.matchAll(/^\| `([a-z-]+)` \| (\d{3}) \|/gm)];
  const codes = new Map<string, number>();
  for (const [, code, status] of rows) {
    assert.ok(!codes.has(code!), `docs/errors.md lists ${code} twice`);
    codes.set(code!, Number(status));
  }
  return codes;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the error catalogue', () => {
  test('docs/errors.md lists every code with its status, and nothing else', () => {
    const documented = documentedCodes();
    const catalogued = new Map(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status]));
    assert.deepEqual([...documented.keys()].sort(), [...catalogued.keys()].sort());
    for (const [code, status] of catalogued) assert.equal(documented.get(code), status, `status of ${code}`);
  });

  test('every catalogued code is raised somewhere in the source', () => {
    const source = sourceFiles(SRC)
      .filter((path) => path !== join(SRC, 'errors.ts'))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    const unused = Object.keys(ERROR_CODES).filter((code) => !source.includes(`'${code}'`));
    assert.deepEqual(unused, [], 'codes no source file raises: drop them from src/errors.ts and docs/errors.md');
  });

  test('refusals are built only through the catalogue', () => {
    const offenders = sourceFiles(SRC)
      .filter((path) => path !== join(SRC, 'errors.ts') && /new ServiceError\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(PROJECT_ROOT, path));
    assert.deepEqual(offenders, []);
  });

  test('a refusal takes its status from its code, and the catalogue message when it has none', () => {
    const refusal = refuse('legal-hold');
    assert.ok(refusal instanceof ServiceError);
    assert.equal(refusal.status, 409);
    assert.equal(refusal.message, ERROR_CODES['legal-hold'].message);
    assert.equal(
      refuse('too-many-failures', 'wait', { headers: { 'retry-after': '3' } }).headers?.['retry-after'],
      '3',
    );
  });

  test('store conflicts become the refusals the caller words, a missing record a 404 of what it names', () => {
    const stale = storeRefusal(new StoreConflictError('stale', 'revision 3 is no longer current'), {
      stale: 'try again',
    });
    assert.ok(stale instanceof ServiceError);
    assert.deepEqual([stale.status, stale.code, stale.message], [409, 'conflict', 'try again']);

    const hold = storeRefusal(new StoreConflictError('legal-hold', 'held'), {
      'legal-hold': (stored) => `${stored}; ask an admin`,
    });
    assert.deepEqual(
      [(hold as ServiceError).code, (hold as ServiceError).message],
      ['legal-hold', 'held; ask an admin'],
    );

    const gone = storeRefusal(new StoreConflictError('not-found', 'no row'), {}, 'version');
    assert.deepEqual(
      [(gone as ServiceError).status, (gone as ServiceError).message],
      [404, 'no such version, or you may not read it'],
    );

    // A conflict the call did not expect is a bug: it goes on as it is, and answers 500.
    const unexpected = new StoreConflictError('last-version', 'only one');
    assert.equal(storeRefusal(unexpected, { stale: 'try again' }), unexpected);
    const other = new Error('disk full');
    assert.equal(storeRefusal(other), other);
  });
});
