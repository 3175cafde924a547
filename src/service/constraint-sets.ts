import type { Identity } from '../auth/identity.js';
import { mayManageConstraintSets } from '../auth/policy.js';
import { ConstraintDefinitionError, readConstraintSet } from '../oscal/constraints/external.js';
import type { ConstraintSet } from '../oscal/constraints/index.js';
import type { ConstraintSetRecord, ConstraintSetStore } from '../store/types.js';
import { sha256 } from '../digest.js';
import { refuse, unauthenticated } from '../errors.js';

/** Set names are path segments and import hrefs: short, lower-case, no slashes. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Compiled sets kept by name and hash: compiling a set parses every expression in it. */
const CACHE_LIMIT = 64;

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
  private readonly compiled = new Map<string, { hash: string; set: ConstraintSet }>();

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
    await this.compile(name, text);
    const { created } = await this.store.putConstraintSet(
      { name, text, hash: sha256(body), size: body.length },
      { actor: identity.name, action: 'constraint-set.put', detail: { name } },
    );
    const record = await this.store.getConstraintSet(name);
    if (!record) throw refuse('not-found', `no constraint set named ${name}`);
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
        if (known && known.hash === record.hash) return known.set;
        const set = await this.compile(name, record.text);
        if (this.compiled.size >= CACHE_LIMIT) this.compiled.delete(this.compiled.keys().next().value!);
        this.compiled.set(name, { hash: record.hash, set });
        return set;
      }),
    );
  }

  private async compile(name: string, text: string): Promise<ConstraintSet> {
    try {
      return await readConstraintSet(name, text, async (href) => {
        const imported = importedName(href);
        const record = NAME.test(imported) ? await this.store.getConstraintSet(imported) : undefined;
        if (!record) throw new Error(`no constraint set named ${imported} is registered`);
        return { name: imported, text: record.text };
      });
    } catch (e) {
      if (!(e instanceof ConstraintDefinitionError)) throw e;
      throw refuse('invalid-constraint-set', `the constraint set is not valid: ${e.message}`, {
        errors: [{ path: '', message: e.message, line: e.line }],
      });
    }
  }
}
