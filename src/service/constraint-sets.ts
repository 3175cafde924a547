import type { Identity } from '../auth/identity.js';
import { mayManageConstraintSets } from '../auth/policy.js';
import { ConstraintDefinitionError, readConstraintSet } from '../oscal/constraints/external.js';
import type { ConstraintSet } from '../oscal/constraints/index.js';
import type { ConstraintSetRecord, ConstraintSetStore } from '../store/types.js';
import { sha256 } from '../digest.js';
import { refuse, unauthenticated } from '../errors.js';

/** Set names are path segments and import hrefs: short, lower-case, no slashes. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Compiled sets kept: compiling a set parses every expression in it. */
const CACHE_LIMIT = 64;

/** A compiled set, and the hash of its text and of each set it imports (however deep) when it was compiled. */
interface Compiled {
  hashes: Map<string, string>;
  set: ConstraintSet;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function checkName(name: string): void {
  if (!NAME.test(name))
    throw refuse(
      'bad-request',
      `"${name}" is not a constraint set name: use 1 to 64 of a-z, 0-9, ".", "_" and "-", starting with a letter or digit`,
    );
}

/** An import names another registered set, by its name or its name with .xml. */
function importedName(href: string): string {
  return href.replace(/^\.\//, '').replace(/\.xml$/, '');
}

/**
 * External constraint sets registered by name (admins put and delete them; any signed-in user
 * may read them and validate with them). Their imports name other registered sets.
 */
export class ConstraintSetService {
  /**
   * By name; one is reused while its text and those of the sets it imports are the ones it was
   * compiled from (put and delete change hashes, and that is all that changes a compiled set).
   */
  private readonly compiled = new Map<string, Compiled>();
  /** How many sets were compiled and how many reused (/metrics). */
  readonly counts = { compiled: 0, reused: 0 };

  constructor(private readonly store: ConstraintSetStore) {}

  async put(
    identity: Identity,
    name: string,
    body: Buffer,
  ): Promise<{ created: boolean; record: ConstraintSetRecord }> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    if (!mayManageConstraintSets(identity))
      throw refuse('forbidden', 'registering constraint sets needs the admin role');
    checkName(name);
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      throw refuse('malformed', 'the body is not valid UTF-8 text');
    }
    const compiled = await this.compile(name, text);
    const { created } = await this.store.putConstraintSet(
      { name, text, hash: sha256(body), size: body.length },
      { actor: identity.name, action: 'constraint-set.put', detail: { name } },
    );
    const record = await this.store.getConstraintSet(name);
    if (!record) throw refuse('not-found', `no constraint set named ${name}`);
    // Kept under what was stored: a put that raced this one leaves a hash that will not match.
    compiled.hashes.set(name, record.hash);
    if (record.text === text) this.keep(name, compiled);
    return { created, record };
  }

  async list(identity: Identity): Promise<Omit<ConstraintSetRecord, 'text'>[]> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    return this.store.listConstraintSets();
  }

  async get(identity: Identity, name: string): Promise<ConstraintSetRecord> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    checkName(name);
    const record = await this.store.getConstraintSet(name);
    if (!record) throw refuse('not-found', `no constraint set named ${name}`);
    return record;
  }

  async remove(identity: Identity, name: string): Promise<void> {
    if (identity.kind === 'anonymous') throw unauthenticated();
    if (!mayManageConstraintSets(identity)) throw refuse('forbidden', 'deleting constraint sets needs the admin role');
    checkName(name);
    if (
      !(await this.store.deleteConstraintSet(name, {
        actor: identity.name,
        action: 'constraint-set.delete',
        detail: { name },
      }))
    ) {
      throw refuse('not-found', `no constraint set named ${name}`);
    }
    this.compiled.delete(name);
  }

  /** The registered sets of these names, compiled (the `constraints` query parameter of the validation endpoints). */
  async sets(identity: Identity, names: readonly string[]): Promise<ConstraintSet[]> {
    if (names.length > 0 && identity.kind === 'anonymous') throw unauthenticated();
    return Promise.all(
      names.map(async (name) => {
        checkName(name);
        const record = await this.store.getConstraintSet(name);
        if (!record)
          throw refuse(
            'unknown-constraint-set',
            `no constraint set named ${name} is registered (GET /oscal/v1/constraint-set lists them)`,
          );
        const known = this.compiled.get(name);
        if (known && (await this.unchanged(known, name, record.hash))) {
          this.counts.reused++;
          this.keep(name, known);
          return known.set;
        }
        const compiled = await this.compile(name, record.text);
        compiled.hashes.set(name, record.hash);
        this.keep(name, compiled);
        return compiled.set;
      }),
    );
  }

  /** Most recently used last; past the limit the least recently used goes. */
  private keep(name: string, compiled: Compiled): void {
    this.compiled.delete(name);
    if (this.compiled.size >= CACHE_LIMIT) this.compiled.delete(this.compiled.keys().next().value!);
    this.compiled.set(name, compiled);
  }

  private async unchanged(known: Compiled, name: string, hash: string): Promise<boolean> {
    for (const [set, was] of known.hashes) {
      const now = set === name ? hash : (await this.store.getConstraintSet(set))?.hash;
      if (now !== was) return false;
    }
    return true;
  }

  private async compile(name: string, text: string): Promise<Compiled> {
    const hashes = new Map<string, string>();
    try {
      const set = await readConstraintSet(name, text, async (href) => {
        const imported = importedName(href);
        const record = NAME.test(imported) ? await this.store.getConstraintSet(imported) : undefined;
        if (!record) throw new Error(`no constraint set named ${imported} is registered`);
        // An import that changed between two reads of it leaves a hash no set has, so the result is never reused.
        hashes.set(imported, (hashes.get(imported) ?? record.hash) === record.hash ? record.hash : '');
        return { name: imported, text: record.text };
      });
      this.counts.compiled++;
      return { hashes, set };
    } catch (e) {
      if (!(e instanceof ConstraintDefinitionError)) throw e;
      throw refuse('invalid-constraint-set', `the constraint set is not valid: ${e.message}`, {
        errors: [{ path: '', message: e.message, line: e.line }],
      });
    }
  }
}
