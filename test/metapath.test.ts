/**
 * Metapath: each expression form and each function of the library constraints use, on a small
 * catalog read from JSON, XML and YAML alike; and the errors, each a MetapathError with its
 * W3C code and the place in the expression.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOscal, serializeOscal } from '../src/oscal/formats/index.js';
import {
  compileMetapath,
  documentNode,
  isNode,
  metapathOf,
  MetapathError,
  stringOf,
  type Item,
  type MetaNode,
  type Sequence,
} from '../src/oscal/metapath/index.js';
import { Atom } from '../src/oscal/metapath/items.js';

const CATALOG = {
  catalog: {
    uuid: '8d1ae7b6-6a0c-4ef4-9e2c-2c0cbd8e7cf1',
    metadata: {
      title: 'Test catalog',
      'last-modified': '2024-01-01T00:00:00Z',
      version: '1.0',
      'oscal-version': '1.1.2',
      roles: [
        { id: 'owner', title: 'Owner' },
        { id: 'reviewer', title: 'Reviewer' },
      ],
    },
    groups: [
      {
        id: 'ac',
        title: 'Access Control',
        controls: [
          {
            id: 'ac-1',
            title: 'Policy',
            params: [{ id: 'ac-1_prm_1', label: 'frequency' }],
            props: [
              { name: 'label', value: 'AC-1' },
              { name: 'sort-id', value: 'ac-01' },
            ],
            parts: [{ id: 'ac-1_smt', name: 'statement', prose: 'Review {{ insert: param, ac-1_prm_1 }}.' }],
          },
          {
            id: 'ac-2',
            title: 'Account Management',
            props: [
              { name: 'label', value: 'AC-2' },
              { name: 'status', value: 'withdrawn', ns: 'http://example.com/ns' },
            ],
            controls: [{ id: 'ac-2.1', title: 'Automated', props: [{ name: 'label', value: 'AC-2(1)' }] }],
          },
        ],
      },
      {
        id: 'au',
        title: 'Audit',
        controls: [{ id: 'au-1', title: 'Audit Policy', props: [{ name: 'label', value: 'AU-1' }] }],
      },
    ],
  },
};

const FORMATS = ['json', 'xml', 'yaml'] as const;
const roots = new Map<string, MetaNode>(
  FORMATS.map((format) => {
    const text =
      format === 'json'
        ? JSON.stringify(CATALOG)
        : serializeOscal({ model: 'catalog', version: '1.1.2', content: CATALOG }, format);
    return [format, documentNode(parseOscal(text, format))];
  }),
);
const root = roots.get('json')!;
const NOW = new Date('2024-06-15T12:30:00Z');

function run(expression: string, focus: Item | undefined = root, variables?: Map<string, Sequence>): Sequence {
  return compileMetapath(expression, { modelNamespace: 'http://csrc.nist.gov/ns/oscal/1.0' }).evaluate(
    focus,
    { now: NOW, timezone: 0 },
    variables,
  );
}

/** Results a test can compare: nodes by their Metapath, atomic values as JavaScript values, others by kind. */
function plain(seq: Sequence): unknown[] {
  return seq.map((item) => {
    if (isNode(item)) return metapathOf(item);
    if (item instanceof Atom) return `${item.type}:${stringOf(item)}`;
    if (typeof item === 'object') return item.constructor.name;
    return item;
  });
}

function check(expression: string, expected: unknown[], focus?: Item): void {
  assert.deepEqual(plain(run(expression, focus)), expected, expression);
}

function fails(expression: string, code: string, message?: RegExp): void {
  assert.throws(
    () => run(expression),
    (e: unknown) => {
      assert.ok(e instanceof MetapathError, `${expression}: a MetapathError, not ${String(e)}`);
      assert.equal(e.code, code, `${expression}: ${e.message}`);
      if (message) assert.match(e.message, message);
      return true;
    },
  );
}

describe('Metapath over the Metaschema data model', () => {
  test('the same paths find the same nodes whatever format the document was read from', () => {
    const expressions = [
      '//control/@id',
      '/catalog/metadata/role',
      '//prop[@name="label"]/@value',
      'count(//part)',
      '//group[2]//control',
    ];
    for (const expression of expressions) {
      const [json, xml, yaml] = FORMATS.map((f) => plain(run(expression, roots.get(f))));
      assert.deepEqual(xml, json, expression);
      assert.deepEqual(yaml, json, expression);
    }
  });

  test('groups are not nodes: fields and assemblies are named by their XML names', () => {
    check('/catalog/metadata/role/@id', ['/catalog[1]/metadata[1]/role[1]/@id', '/catalog[1]/metadata[1]/role[2]/@id']);
    check('count(/catalog/metadata/roles)', [0]);
    check('string(//control[@id="ac-1"]/part/prose)', ['Review {{ insert: param, ac-1_prm_1 }}.']);
  });

  test('flag and field values are typed by their Metaschema datatypes', () => {
    check('data(/catalog/metadata/last-modified) instance of xs:dateTime', [true]);
    check('/catalog/metadata/last-modified instance of xs:dateTime', [false]);
    check('/catalog/metadata/last-modified < xs:dateTime("2024-06-01T00:00:00Z")', [true]);
    check('data(/catalog/@uuid) instance of xs:string', [true]);
  });
});

describe('path expressions and axes', () => {
  const ac1 = () => run('//control[@id="ac-1"]')[0]!;
  test('child, descendant, attribute, self, parent, ancestor', () => {
    check('count(child::catalog/child::group)', [2]);
    check('count(descendant::control)', [4]);
    check('count(//control/attribute::id)', [4]);
    check('self::control/@id', ['/catalog[1]/group[1]/control[1]/@id'], ac1());
    check('parent::group/@id', ['/catalog[1]/group[1]/@id'], ac1());
    check('../@id', ['/catalog[1]/group[1]/@id'], ac1());
    check('ancestor::*/name()', ['catalog', 'group'], ac1());
    check('ancestor-or-self::*[1]/@id', ['/catalog[1]/group[1]/control[1]/@id'], ac1());
    check('descendant-or-self::part/@id', ['/catalog[1]/group[1]/control[1]/part[1]/@id'], ac1());
  });

  test('sibling and document-order axes count positions along the axis', () => {
    check('following-sibling::control/@id ! string()', ['ac-2'], ac1());
    check('//control[@id="ac-2"]/preceding-sibling::*[1]/@id ! string()', ['ac-1']);
    check('//control[@id="au-1"]/preceding::control[1]/@id ! string()', ['ac-2.1']);
    check('count(//control[@id="ac-1"]/following::control)', [3]);
    check('//control[@id="ac-2.1"]/ancestor::*[2]/@id ! string()', ['ac']);
  });

  test('// and predicates, positional and boolean', () => {
    check('//control[1]/@id ! string()', ['ac-1', 'ac-2.1', 'au-1']);
    check('(//control)[1]/@id ! string()', ['ac-1']);
    check('(//control)[last()]/@id ! string()', ['au-1']);
    check('//control[prop[@name="label"]/@value = "AC-2"]/@id ! string()', ['ac-2']);
    check('//control[position() = 2]/@id ! string()', ['ac-2']);
    check('//group[controls]', []);
    check('//*[@id="ac-2"]/name()', ['control']);
  });

  test('name and kind tests: wildcards, flag(), field(), assembly(), node()', () => {
    check('count(//control[@id="ac-1"]/@*)', [1]);
    check('//control[@id="ac-1"]/*/name()', ['title', 'param', 'prop', 'prop', 'part']);
    check('//control[@id="ac-1"]/field()/name()', ['title']);
    check('count(//control[@id="ac-1"]/assembly())', [4]);
    check('count(/catalog/metadata/node())', [6]);
    check('/catalog/metadata/*:title/name()', ['title']);
  });

  test('union, intersect, except keep document order without duplicates', () => {
    check('(//control[@id="ac-2"] | //group[@id="ac"] | //control[@id="ac-2"])/@id ! string()', ['ac', 'ac-2']);
    check('(//control intersect //group[1]//control)/@id ! string()', ['ac-1', 'ac-2', 'ac-2.1']);
    check('(//control except //control/control)/@id ! string()', ['ac-1', 'ac-2', 'au-1']);
  });

  test('node comparisons: is, <<, >>', () => {
    check('(//control)[1] is //group[1]/control[1]', [true]);
    check('//control[@id="ac-1"] << //control[@id="au-1"]', [true]);
    check('//control[@id="ac-1"] >> //control[@id="au-1"]', [false]);
  });
});

describe('operators', () => {
  test('general comparisons are existential; value comparisons take single values', () => {
    check('//prop/@name = "status"', [true]);
    check('//prop/@name != "label"', [true]);
    check('(1, 2) = (2, 3)', [true]);
    check('(1, 2) > (5, 6)', [false]);
    check('"abc" lt "abd"', [true]);
    check('() eq 1', []);
    check('3 ge 3', [true]);
  });

  test('arithmetic keeps XPath numeric types', () => {
    check('1 + 2 * 3', [7]);
    check('7 idiv 2', [3]);
    check('-7 mod 2', [-1]);
    check('1 div 4', ['decimal:0.25']);
    check('2.5 * 2', ['decimal:5']);
    check('1e0 div 0', ['double:INF']);
    check('- (3)', [-3]);
    check('() + 1', []);
  });

  test('range, string concatenation, simple map, arrow', () => {
    check('1 to 4', [1, 2, 3, 4]);
    check('5 to 3', []);
    check('"a" || 1 || true()', ['a1true']);
    check('(1 to 3) ! (. * .)', [1, 4, 9]);
    check('"abc" => upper-case()', ['ABC']);
    check('(3, 1, 2) => sort() => reverse()', [3, 2, 1]);
  });

  test('logical operators short-circuit', () => {
    check('true() or error()', [true]);
    check('false() and error()', [false]);
    check('not(//control) or exists(//group)', [true]);
  });

  test('for, let, if, some, every', () => {
    check('for $c in //group/control return string($c/@id)', ['ac-1', 'ac-2', 'au-1']);
    check('for $a in (1, 2), $b in (10, 20) return $a + $b', [11, 21, 12, 22]);
    check('let $n := count(//control), $m := $n * 2 return $m', [8]);
    check('if (//control[@id="zz"]) then "yes" else "no"', ['no']);
    check('some $p in //prop satisfies $p/@value = "AC-2(1)"', [true]);
    check('every $c in //control satisfies exists($c/title)', [true]);
    check('every $c in //control satisfies exists($c/param)', [false]);
  });

  test('instance of, treat as, cast as, castable as', () => {
    check('5 instance of xs:integer', [true]);
    check('5 instance of xs:decimal', [true]);
    check('"5" instance of xs:integer', [false]);
    check('(1, 2) instance of xs:integer+', [true]);
    check('() instance of empty-sequence()', [true]);
    check('//control[1] instance of element()+', [true]);
    check('"12" cast as xs:integer', [12]);
    check('"2024-02-30" castable as xs:date', [false]);
    check('"2024-02-29" castable as xs:date', [true]);
    check('() cast as xs:string?', []);
    check('3 treat as xs:integer', [3]);
  });
});

describe('sequences, maps, arrays and functions', () => {
  test('sequences flatten and may be empty', () => {
    check('(1, (2, 3), ())', [1, 2, 3]);
    check('count(())', [0]);
  });

  test('maps: constructor, lookup, map: functions', () => {
    check('map { "a": 1, "b": (2, 3) }?b', [2, 3]);
    check('map { "a": 1 }("a")', [1]);
    check('map:size(map { 1: "x", 2: "y" })', [2]);
    check('map:keys(map { "k": 1 })', ['k']);
    check('map:contains(map:put(map {}, "x", 1), "x")', [true]);
    check('map:get(map:merge((map { "a": 1 }, map { "a": 2 })), "a")', [1]);
    check('map:get(map:merge((map { "a": 1 }, map { "a": 2 }), map { "duplicates": "use-last" }), "a")', [2]);
    check('map:size(map:remove(map { "a": 1, "b": 2 }, "a"))', [1]);
    check('map:for-each(map { "a": 1 }, function($k, $v) { $k || $v })', ['a1']);
    check('map { "m": map { "n": 5 } }?m?n', [5]);
    check('map:entry("z", 9)?z', [9]);
  });

  test('arrays: square and curly constructors, lookup, array: functions', () => {
    check('[1, (2, 3), 4]?2', [2, 3]);
    check('array { 1, 2, 3 }?*', [1, 2, 3]);
    check('array:size([(), ()])', [2]);
    check('array:get(["a", "b"], 2)', ['b']);
    check('array:append([1], 2)?*', [1, 2]);
    check('array:reverse([1, 2])?*', [2, 1]);
    check('array:flatten([1, [2, [3]]])', [1, 2, 3]);
    check('array:for-each([1, 2], function($x) { $x * 10 })?*', [10, 20]);
    check('array:filter([1, 2, 3], function($x) { $x > 1 })?*', [2, 3]);
    check('array:fold-left([1, 2, 3], 0, function($a, $m) { $a + $m })', [6]);
    check('array:join(([1], [2]))?*', [1, 2]);
    check('array:subarray([1, 2, 3, 4], 2, 2)?*', [2, 3]);
    check('array:head([7, 8])', [7]);
    check('array:tail([7, 8])?*', [8]);
  });

  test('inline functions, named references, partial application, higher-order functions', () => {
    check('function($x) { $x + 1 }(2)', [3]);
    check('let $f := upper-case#1 return $f("x")', ['X']);
    check('let $add := function($a, $b) { $a + $b }, $inc := $add(1, ?) return $inc(41)', [42]);
    check('for-each((1, 2), function($x) { $x * 2 })', [2, 4]);
    check('filter(1 to 5, function($x) { $x mod 2 = 0 })', [2, 4]);
    check('fold-left(1 to 4, 0, function($a, $x) { $a + $x })', [10]);
    check('fold-right(("a", "b"), "", concat#2)', ['ab']);
    check('for-each-pair((1, 2), (10, 20), function($a, $b) { $a * $b })', [10, 40]);
    check('sort((3, 1, 2))', [1, 2, 3]);
    check('sort(("b", "a", "c"), (), function($s) { $s })', ['a', 'b', 'c']);
    check('apply(concat#3, ["a", "b", "c"])', ['abc']);
    check('function-arity(substring#2)', [2]);
  });

  test("variables bound outside the expression (a constraint's lets)", () => {
    const owner = compileMetapath('$owner || "!"', { variables: ['owner'] });
    assert.deepEqual(owner.evaluate(root, {}, new Map([['owner', ['x']]])), ['x!']);
  });
});

describe('the function library', () => {
  test('accessors and booleans', () => {
    check('string((//control)[1]/@id)', ['ac-1']);
    check('data((//prop)[1]/@value)', ['AC-1']);
    check('boolean(//group)', [true]);
    check('boolean("")', [false]);
    check('not(())', [true]);
    check('number("12.5")', ['double:12.5']);
    check('number("x")', ['double:NaN']);
    check('name((//control)[1])', ['control']);
    check('local-name((//control)[1]/@id)', ['id']);
    check('path(//control[@id="ac-2.1"]/@id)', ['/catalog[1]/group[1]/control[2]/control[1]/@id']);
    check('root((//control)[1]) is /', [true]);
    check('has-children((//control)[1])', [true]);
  });

  test('counting and sequences', () => {
    check('count(//control)', [4]);
    check('exists(//param)', [true]);
    check('empty(//param)', [false]);
    check('head((4, 5))', [4]);
    check('tail((4, 5, 6))', [5, 6]);
    check('reverse((1, 2, 3))', [3, 2, 1]);
    check('distinct-values(("a", "b", "a", 1, 1.0))', ['a', 'b', 1]);
    check('index-of(("a", "b", "a"), "a")', [1, 3]);
    check('insert-before((1, 3), 2, 2)', [1, 2, 3]);
    check('remove((1, 2, 3), 2)', [1, 3]);
    check('subsequence((1, 2, 3, 4), 2, 2)', [2, 3]);
    check('zero-or-one(5)', [5]);
    check('exactly-one(5)', [5]);
    check('deep-equal((1, "a"), (1, "a"))', [true]);
    check('deep-equal((//control)[1], (//control)[1])', [true]);
    check('deep-equal((//control)[1], (//control)[2])', [false]);
    check('count(innermost(//control | //group))', [3]);
    check('count(outermost(//control | //group))', [2]);
  });

  test('aggregates and numbers', () => {
    check('sum((1, 2, 3))', [6]);
    check('sum(())', [0]);
    check('avg((1, 2))', ['decimal:1.5']);
    check('min((3, 1, 2))', [1]);
    check('max(("a", "c", "b"))', ['c']);
    check('abs(-2)', [2]);
    check('floor(2.7)', ['decimal:2']);
    check('ceiling(2.1)', ['decimal:3']);
    check('round(2.5)', ['decimal:3']);
    check('round-half-to-even(2.5)', ['decimal:2']);
    check('round(3.14159, 2)', ['decimal:3.14']);
  });

  test('strings', () => {
    check('concat("a", "b", 3)', ['ab3']);
    check('string-join(//group/@id, ", ")', ['ac, au']);
    check('contains("abcdef", "cd")', [true]);
    check('starts-with((//control)[1]/@id, "ac")', [true]);
    check('ends-with("abc", "bc")', [true]);
    check('substring("12345", 2, 3)', ['234']);
    check('substring("12345", 1.5, 2.6)', ['234']);
    check('substring-before("a-b-c", "-")', ['a']);
    check('substring-after("a-b-c", "-")', ['b-c']);
    check('string-length("a😀b")', [3]);
    check('normalize-space("  a   b ")', ['a b']);
    check('upper-case("aBc")', ['ABC']);
    check('lower-case("AbC")', ['abc']);
    check('translate("bar", "abc", "ABC")', ['BAr']);
    check('compare("a", "b")', [-1]);
    check('string-to-codepoints("AB")', [65, 66]);
    check('codepoints-to-string((72, 105))', ['Hi']);
    check('encode-for-uri("a b/c")', ['a%20b%2Fc']);
  });

  test('regular expressions: matches, replace, tokenize', () => {
    check('matches("ac-2.1", "^[a-z]{2}-\\d+(\\.\\d+)?$")', [true]);
    check('matches("ABC", "abc", "i")', [true]);
    check('replace("abracadabra", "a(.)", "a$1$1")', ['abbraccaddabbra']);
    check('tokenize("a, b,c", ",\\s*")', ['a', 'b', 'c']);
    check('tokenize(" red  green ")', ['red', 'green']);
  });

  test('dates, times and durations', () => {
    check('current-dateTime()', ['dateTime:2024-06-15T12:30:00Z']);
    check('current-date()', ['date:2024-06-15Z']);
    check('year-from-dateTime(xs:dateTime("2024-03-05T10:00:00Z"))', [2024]);
    check('month-from-date(xs:date("2024-03-05"))', [3]);
    check('xs:dateTime("2024-01-02T00:00:00Z") - xs:dateTime("2024-01-01T00:00:00Z")', ['dayTimeDuration:P1D']);
    check('xs:date("2024-01-31") + xs:yearMonthDuration("P1M")', ['date:2024-02-29']);
    check('days-from-duration(xs:dayTimeDuration("P3DT4H"))', [3]);
    check('xs:dateTime("2002-04-02T12:00:00-01:00") = xs:dateTime("2002-04-02T17:00:00+04:00")', [true]);
    check('adjust-dateTime-to-timezone(xs:dateTime("2024-01-01T12:00:00Z"), xs:dayTimeDuration("PT2H"))', [
      'dateTime:2024-01-01T14:00:00+02:00',
    ]);
  });

  test('Metaschema and OSCAL functions', () => {
    check('//prop[has-oscal-namespace("http://csrc.nist.gov/ns/oscal")]/@value ! string()', [
      'AC-1',
      'ac-01',
      'AC-2',
      'AC-2(1)',
      'AU-1',
    ]);
    check('//prop[has-oscal-namespace(("http://example.com/ns"))]/@name ! string()', ['status']);
    check('count(recurse-depth(//control[@id="ac-2"], "control"))', [2]);
    check('base64-decode(base64-encode("OSCAL"))', ['OSCAL']);
    check('string(base64-encode("hi"))', ['aGk=']);
    check('resolve-uri("b.json", "https://example.com/a/c.json")', ['https://example.com/a/b.json']);
    check('doc-available("https://example.com/nothing.json")', [false]);
  });
});

describe('errors name the problem, its W3C code and the place', () => {
  test('a syntax error, with the character where it stands', () => {
    assert.throws(
      () => compileMetapath('//control[@id = "a"'),
      (e: unknown) =>
        e instanceof MetapathError && e.code === 'XPST0003' && e.position === 19 && /expected "\]"/.test(e.message),
    );
    fails('1 +', 'XPST0003');
    fails('"unclosed', 'XPST0003', /not closed/);
  });

  test('an unknown function, or a known one with the wrong number of arguments', () => {
    fails('value()', 'XPST0017', /there is no function value\(\)/);
    fails('count(1, 2)', 'XPST0017', /takes 1 argument/);
    fails('nope:count(1)', 'XPST0081', /prefix nope/);
  });

  test('an unbound variable', () => {
    fails('$missing + 1', 'XPST0008', /\$missing/);
  });

  test('type errors', () => {
    fails('"a" + 1', 'XPTY0004');
    fails('xs:date("2020-01-01") = 10.0', 'XPTY0004', /xs:date cannot be compared with one of type xs:decimal/);
    fails('(1, 2) eq 1', 'XPTY0004', /one value at most/);
    fails('contains(1, "1")', 'XPTY0004', /first argument of fn:contains must be a string/);
    fails('(1, 2)/x', 'XPTY0019');
    fails('boolean((1, 2))', 'FORG0006');
    fails('"x" cast as xs:integer', 'FORG0001');
    fails('1 idiv 0', 'FOAR0001');
    fails('map { "a": 1, "a": 2 }', 'XQDY0137');
    fails('[1]?3', 'FOAY0001');
  });

  test('a bad regular expression', () => {
    fails('matches("a", "(")', 'FORX0002');
    fails('matches("a", "a", "z")', 'FORX0001');
    fails('replace("abc", "x*", "y")', 'FORX0003');
  });

  test('fn:error raises the code it is given', () => {
    fails('error()', 'FOER0000');
  });

  test('a runtime error carries the position of the construct that raised it', () => {
    assert.throws(
      () => run('count(//control) + contains(1, "1")'),
      (e: unknown) => e instanceof MetapathError && e.position === 19,
    );
  });
});
