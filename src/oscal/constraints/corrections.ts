/**
 * OSCAL 1.0.0's modules hold constraints that cannot be evaluated (expressions that are not
 * valid Metapath, or that fail on every node they apply to), that check nothing by a typo, or
 * that NIST's own 1.0.0 content breaks; 1.1.0-1.1.2 ask hashes for half their digits, and hold
 * the related-control links of NIST's own resolved baselines to be errors. NIST corrected each
 * of them in a later release (1.0.1, 1.1.3 or 1.2.0); we apply the constraints with those
 * corrections (docs/decisions/0049-nist-constraints-as-corrected.md). The build fails
 * when an entry no longer matches exactly as many elements as it says, so this list cannot
 * silently go stale.
 */
import type { XmlElement } from '../../metaschema/xml-tree.js';

interface Correction {
  version: string;
  file: string;
  /** The element as written: its name and the attributes that single it out. */
  element: string;
  written: Readonly<Record<string, string>>;
  /** The attributes to set; with `element`, the element becomes that one with exactly these attributes. */
  corrected: { element?: string; attrs: Readonly<Record<string, string>> };
  /** How many elements of the constraints the release applies are written so (a definition no model uses is not compiled). */
  uses: number;
  why: string;
}

const VALUE_OF_FIELD = 'value() is no Metapath function; a field\'s key is its own value, "." (1.0.1)';
const VALUE_OF_PROPERTY = "value() is no Metapath function; a property's value is its @value flag (1.0.1)";
const ARRAY_IN_PREDICATE =
  'the inner [ ] makes an array, whose effective boolean value is an error for every such link (1.0.1)';

/** A target (or key-field target, or test) as written, and as 1.0.1 writes it. */
function expression(
  file: string,
  element: string,
  attr: string,
  written: string,
  corrected: string,
  why: string,
  uses = 1,
): Correction {
  return {
    version: '1.0.0',
    file,
    element,
    written: { [attr]: written },
    corrected: { attrs: { [attr]: corrected } },
    uses,
    why,
  };
}

/** Algorithms, the hex digits 1.1.0-1.1.2 ask for, the digits the digest has (as 1.1.3 asks). */
const HASH_LENGTHS: readonly (readonly [string, number, number])[] = [
  ["'SHA-224','SHA3-224'", 28, 56],
  ["'SHA-256','SHA3-256'", 32, 64],
  ["'SHA-384','SHA3-384'", 48, 96],
  ["'SHA-512','SHA3-512'", 64, 128],
];

export const CORRECTIONS: readonly Correction[] = [
  expression('oscal_metadata_metaschema.xml', 'key-field', 'target', 'value()', '.', VALUE_OF_FIELD, 6),
  expression('oscal_ssp_metaschema.xml', 'key-field', 'target', 'value()', '.', VALUE_OF_FIELD),
  ...[
    "('identity-assurance-level','authenticator-assurance-level','federation-assurance-level')",
    "'cloud-deployment-model'",
    "'cloud-service-model'",
    "'privacy-designation'",
  ].map((name) =>
    expression(
      'oscal_ssp_metaschema.xml',
      'allowed-values',
      'target',
      `prop[@name=${name}]/value()`,
      `prop[@name=${name}]/@value`,
      VALUE_OF_PROPERTY,
    ),
  ),
  expression(
    'oscal_ssp_metaschema.xml',
    'allowed-values',
    'target',
    'property/@name',
    'prop/@name',
    'the element is named prop; "property" is its definition\'s name and matches nothing (1.0.1)',
  ),
  ...['privacy-impact-assessment', 'diagram', 'system-security-plan'].map((rel) =>
    expression(
      'oscal_ssp_metaschema.xml',
      'index-has-key',
      'target',
      `link[@rel='${rel}' and [starts-with(@href,'#')]]`,
      `link[@rel='${rel}' and starts-with(@href,'#')]`,
      ARRAY_IN_PREDICATE,
    ),
  ),
  expression(
    'oscal_ssp_metaschema.xml',
    'matches',
    'target',
    "link[@rel='diagramn']/@href[starts-with(.,'#')]",
    "link[@rel='diagram']/@href[starts-with(.,'#')]",
    'a typo of diagram: the check of diagram links never ran (1.0.1)',
  ),
  expression(
    'oscal_ssp_metaschema.xml',
    'allowed-values',
    'target',
    'security-sensitivity-level|security-impact-level/(security-objective-confidentiality|security-objective-integrity|security-objective-availability)|system-information/information-type/(confidentiality-impact|integrity-impact|availability-impact)/(base|selected}',
    'security-sensitivity-level|security-impact-level/(security-objective-confidentiality|security-objective-integrity|security-objective-availability)|system-information/information-type/(confidentiality-impact|integrity-impact|availability-impact)/(base|selected)',
    'the last group closes with } instead of ): not valid Metapath (1.0.1 rewrote the target; only the bracket is mended here)',
  ),
  expression(
    'oscal_ssp_metaschema.xml',
    'index',
    'target',
    '',
    'provided',
    "the index of an export's provided items names no target; 1.0.1 indexes every export's provided items, as this does",
  ),
  expression(
    'oscal_assessment-common_metaschema.xml',
    'allowed-values',
    'target',
    "prop/[@name='type']/@value",
    "prop[@name='type']/@value",
    'the / before [ makes an array of each prop, and a path step from an array is an error (1.0.1)',
  ),
  expression(
    'oscal_component_metaschema.xml',
    'allowed-values',
    'target',
    'responsible-role/@role-id|control-implementation/implemented-requirement/responsible-role/@role-id||control-implementation/implemented-requirement/statement/responsible-role/@role-id',
    'responsible-role/@role-id|control-implementation/implemented-requirement/responsible-role/@role-id|control-implementation/implemented-requirement/statement/responsible-role/@role-id',
    '|| joins strings; a union was meant (1.0.1)',
  ),
  expression(
    'oscal_implementation-common_metaschema.xml',
    'allowed-values',
    'target',
    "prop[(@name=('ipv4-address','ipv6-address')]/@class",
    "prop[@name=('ipv4-address','ipv6-address')]/@class",
    'an unclosed parenthesis: not valid Metapath (1.0.1)',
  ),
  expression(
    'oscal_implementation-common_metaschema.xml',
    'allowed-values',
    'target',
    "prop[@name='direction')]/@value",
    "prop[@name='direction']/@value",
    'a stray parenthesis: not valid Metapath (1.0.1)',
  ),
  {
    version: '1.0.0',
    file: 'oscal_catalog_metaschema.xml',
    element: 'has-cardinality',
    written: { target: "part[@name='statement']", 'min-occurs': '1', 'max-occurs': '1' },
    corrected: {
      element: 'expect',
      attrs: {
        id: 'catalog-control-require-statement-when-not-withdrawn',
        target: '.',
        test: "prop[@name='status']/@value='withdrawn' or part[@name='statement']",
      },
    },
    uses: 1,
    why: "every control needed a statement, but a withdrawn control has none: NIST's own 1.0.0 SP 800-53 catalog has 180 (1.0.1 exempts withdrawn controls)",
  },
  {
    version: '1.0.0',
    file: 'oscal_metadata_metaschema.xml',
    element: 'has-cardinality',
    written: { target: 'rlink|base64', 'min-occurs': '1' },
    corrected: { attrs: { level: 'WARNING' } },
    uses: 1,
    why: "a resource without an rlink or base64 (a citation only, as three of NIST's 1.0.0 SP 800-53 catalog are) was an error; 1.0.1 made it a warning",
  },
  ...['1.1.0', '1.1.1', '1.1.2'].map((version): Correction => ({
    version,
    file: 'oscal_catalog_metaschema.xml',
    element: 'index-has-key',
    written: {
      name: 'catalog-groups-controls-parts',
      target: "link[@rel=('related','required','incorporated-into','moved-to') and starts-with(@href,'#')]",
    },
    corrected: { attrs: { level: 'WARNING' } },
    uses: 1,
    why: "a resolved catalog keeps the related-control links of controls the baseline left out, so NIST's own resolved baselines broke it; NIST agreed the rule is wrong for them (usnistgov/OSCAL#2093) and 1.2.0 made it a WARNING",
  })),
  ...['1.1.0', '1.1.1', '1.1.2'].flatMap((version) =>
    HASH_LENGTHS.map(([algorithms, written, corrected]): Correction => ({
      version,
      file: 'oscal_metadata_metaschema.xml',
      element: 'matches',
      written: { target: `.[@algorithm=(${algorithms})]`, regex: `^[0-9a-fA-F]{${written}}$` },
      corrected: { attrs: { regex: `^[0-9a-fA-F]{${corrected}}$` } },
      uses: 1,
      why: "the length asked is the digest's bytes, not its hex digits: every correct SHA-256 hash (ours among them) broke it; 1.1.3 asks for twice as many digits",
    })),
  ),
];

function matches(c: Correction, el: XmlElement): boolean {
  return c.element === el.name && Object.entries(c.written).every(([k, v]) => el.attrs[k] === v);
}

/** Applies the corrections of one release to the constraint elements of its modules, counting their uses. */
export class Corrector {
  private readonly used = new Map<Correction, number>();

  constructor(private readonly version: string) {}

  correct(file: string, elements: readonly XmlElement[]): XmlElement[] {
    return elements.map((el) => this.element(file, el));
  }

  private element(file: string, el: XmlElement): XmlElement {
    const children = el.children.map((c) => (typeof c === 'string' ? c : this.element(file, c)));
    const c = CORRECTIONS.find((x) => x.version === this.version && x.file === file && matches(x, el));
    if (!c) return { ...el, children };
    this.used.set(c, (this.used.get(c) ?? 0) + 1);
    return c.corrected.element
      ? { ...el, name: c.corrected.element, attrs: { ...c.corrected.attrs }, children }
      : { ...el, attrs: { ...el.attrs, ...c.corrected.attrs }, children };
  }

  assertAllUsed(): void {
    for (const c of CORRECTIONS.filter((x) => x.version === this.version)) {
      const n = this.used.get(c) ?? 0;
      if (n !== c.uses)
        throw new Error(
          `the constraint correction of ${c.file} <${c.element}> ${JSON.stringify(c.written)} matched ${n} elements, not ${c.uses}: the list in corrections.ts is out of date`,
        );
    }
  }
}
