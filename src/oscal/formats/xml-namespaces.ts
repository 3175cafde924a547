const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** An attribute as the parser reports it. */
export interface Attribute {
  name: string;
  value: string;
}

/** Whether an attribute binds a namespace prefix (xmlns="..." or xmlns:p="..."). */
export function isDeclaration(name: string): boolean {
  return name.charCodeAt(0) === 120 /* x */ && (name === 'xmlns' || name.startsWith('xmlns:'));
}

interface Scope {
  depth: number;
  prefixes: Record<string, string | undefined>;
}

/**
 * Namespace bindings of the open elements. saxes can do this itself, but its namespace mode
 * allocates an object per attribute and costs a fifth of the parse; OSCAL documents declare
 * their namespace once on the root, so here a scope is pushed only where a declaration occurs.
 */
export class NamespaceScopes {
  /**
   * URIs the reader compares against: a declared one is replaced by this same string, so that
   * comparing it is comparing pointers rather than the text of a slice of the document.
   */
  constructor(private readonly known: readonly string[] = []) {}

  private readonly scopes: Scope[] = [{ depth: 0, prefixes: { '': '', xml: XML_NS, xmlns: XMLNS_NS } }];
  private prefixes = this.scopes[0]!.prefixes;

  /** Takes in the declarations on an element at `depth` (1 for the root). */
  open(attributes: readonly Attribute[], depth: number): void {
    let declared: Record<string, string | undefined> | undefined;
    for (const { name, value } of attributes) {
      if (!isDeclaration(name)) continue;
      declared ??= { ...this.prefixes };
      declared[name === 'xmlns' ? '' : name.slice(6)] = this.known.find((uri) => uri === value) ?? value;
    }
    if (declared) {
      this.scopes.push({ depth, prefixes: declared });
      this.prefixes = declared;
    }
  }

  close(depth: number): void {
    if (this.scopes.length > 1 && this.scopes[this.scopes.length - 1]!.depth === depth) {
      this.scopes.pop();
      this.prefixes = this.scopes[this.scopes.length - 1]!.prefixes;
    }
  }

  /** Namespace of an element name; undefined when its prefix is not bound. */
  elementUri(name: string): string | undefined {
    const colon = name.indexOf(':');
    return this.prefixes[colon === -1 ? '' : name.slice(0, colon)];
  }

  /** Namespace of an attribute name: unprefixed attributes are in no namespace. */
  attributeUri(name: string): string | undefined {
    const colon = name.indexOf(':');
    if (colon === -1) return name === 'xmlns' ? XMLNS_NS : '';
    return this.prefixes[name.slice(0, colon)];
  }
}

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}
