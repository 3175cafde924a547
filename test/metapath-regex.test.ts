/**
 * XPath regular expressions on JavaScript's RegExp: XSD's escapes as XSD means them, class
 * subtraction, blocks, flags, back-references, and the errors of F&O 5.6 with their codes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MetapathError } from '../src/oscal/metapath/errors.js';
import { compileWholeMatch, matches, replace, tokenize, translateRegex } from '../src/oscal/metapath/regex.js';

function fails(run: () => unknown, code: string, message?: RegExp): void {
  assert.throws(run, (e: unknown) => {
    assert.ok(e instanceof MetapathError, String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

describe('XSD escapes mean what XSD says, not what JavaScript says', () => {
  test('\\d is any Unicode decimal digit', () => {
    assert.equal(matches('\u0663', '^\\d$'), true, 'ARABIC-INDIC DIGIT THREE');
    assert.equal(matches('x', '\\d'), false);
    assert.equal(matches('\u0663', '^\\D$'), false);
  });

  test('\\w leaves out punctuation, separators and others: not "-", ".", "_" or a space', () => {
    for (const c of ['-', '.', '_', ' ']) assert.equal(matches(c, '\\w'), false, c);
    for (const c of ['a', 'Z', '7', 'é', '+', '$']) assert.equal(matches(c, '^\\w$'), true, c);
    assert.equal(matches('-', '^\\W$'), true);
  });

  test('\\s is space, tab, line feed and carriage return only', () => {
    for (const c of [' ', '\t', '\n', '\r']) assert.equal(matches(c, '^\\s$'), true, JSON.stringify(c));
    assert.equal(matches('\u00a0', '\\s'), false, 'NO-BREAK SPACE');
    assert.equal(matches('\u2003', '\\s'), false, 'EM SPACE');
    assert.equal(matches('\u00a0', '^\\S$'), true);
  });

  test('\\i and \\c are XML name characters', () => {
    assert.equal(matches('x:y-z.1', '^\\i\\c*$'), true);
    assert.equal(matches('1x', '^\\i'), false);
    assert.equal(matches('-', '^\\I$'), true);
    assert.equal(matches(' ', '^\\C$'), true);
  });

  test('. matches anything but line feed and carriage return, unless the s flag', () => {
    assert.equal(matches('\r', '.'), false);
    assert.equal(matches('\n', '.'), false);
    assert.equal(matches('\u2028', '^.$'), true, "JavaScript's . would not match LINE SEPARATOR");
    assert.equal(matches('\n', '^.$', 's'), true);
  });

  test('categories and blocks', () => {
    assert.equal(matches('A', '^\\p{Lu}$'), true);
    assert.equal(matches('a', '\\p{Lu}'), false);
    assert.equal(matches('a', '^\\P{Lu}$'), true);
    assert.equal(matches('é', '^\\p{IsLatin-1Supplement}$'), true);
    assert.equal(matches('α', '^\\p{IsGreek}$'), true);
    assert.equal(matches('a', '\\p{IsGreek}'), false);
  });
});

describe('classes', () => {
  test('ranges, negation, escapes and a - first or last', () => {
    assert.equal(matches('m', '^[a-z]$'), true);
    assert.equal(matches('M', '^[^a-z]$'), true);
    assert.equal(matches('-', '^[a-]$'), true);
    assert.equal(matches('-', '^[-a]$'), true);
    assert.equal(matches(']', '^[\\]]$'), true);
    assert.equal(matches('_', '^[\\d_]$'), true);
  });

  test('subtraction, nested', () => {
    assert.equal(matches('b', '^[a-z-[aeiou]]$'), true);
    assert.equal(matches('e', '^[a-z-[aeiou]]$'), false);
    assert.equal(matches('e', '^[a-z-[aeiou-[e]]]$'), true);
    assert.equal(matches('7', '^[\\w-[\\d]]$'), false);
  });

  test("a - after a range is a literal, as NIST's own URI pattern needs", () => {
    const uri = compileWholeMatch("(?:[0-9a-zA-Z-._~/?!$&'()*+,;=:@]|%[0-9A-F][0-9A-F])+");
    assert.equal(uri.test('a-b.c_d~e%20'), true);
    assert.equal(uri.test('a b'), false);
  });
});

describe("XPath's additions to XSD", () => {
  test('anchors, reluctant quantifiers, non-capturing groups, bounded repeats', () => {
    assert.equal(matches('xab', '^ab'), false);
    assert.equal(matches('xab', 'ab$'), true);
    assert.equal(replace('aaa', 'a+?', 'b'), 'bbb');
    assert.equal(replace('aaa', 'a+', 'b'), 'b');
    assert.equal(matches('abab', '^(?:ab){2}$'), true);
    assert.equal(matches('abababab', '^(?:ab){2,3}$'), false);
    assert.equal(matches('ab', '^(?:ab){1,}$'), true);
  });

  test('back-references to closed groups', () => {
    assert.equal(matches('aa', '^(a)\\1$'), true);
    assert.equal(matches('ab', '^(a)\\1$'), false);
    assert.equal(matches('aa0', '^(a)\\10$'), true, 'with one group, \\10 is group 1 then a 0');
  });

  test('flags: i, m, x, q', () => {
    assert.equal(matches('ABC', 'abc', 'i'), true);
    assert.equal(matches('one\ntwo', '^two$'), false);
    assert.equal(matches('one\ntwo', '^two$', 'm'), true);
    assert.equal(matches('ab', 'a b', 'x'), true);
    assert.equal(matches('a b', '^a[ ]b$', 'x'), true, 'x keeps whitespace inside a class');
    assert.equal(matches('a.b', 'a.b', 'q'), true);
    assert.equal(matches('axb', 'a.b', 'q'), false);
  });
});

describe('fn:replace and fn:tokenize', () => {
  test("F&O's examples", () => {
    assert.equal(replace('abracadabra', 'bra', '*'), 'a*cada*');
    assert.equal(replace('abracadabra', 'a.*a', '*'), '*');
    assert.equal(replace('abracadabra', 'a.*?a', '*'), '*c*bra');
    assert.equal(replace('abracadabra', 'a', ''), 'brcdbr');
    assert.equal(replace('abracadabra', 'a(.)', 'a$1$1'), 'abbraccaddabbra');
    assert.equal(replace('AAAA', 'A+', 'b'), 'b');
    assert.equal(replace('AAAA', 'A+?', 'b'), 'bbbb');
    assert.equal(replace('darted', '^(.*?)d(.*)$', '$1c$2'), 'carted');
    assert.deepEqual(tokenize('The cat sat on the mat', '\\s+'), ['The', 'cat', 'sat', 'on', 'the', 'mat']);
    assert.deepEqual(tokenize(' red green blue '), ['red', 'green', 'blue']);
    assert.deepEqual(tokenize('1, 15, 24, 50', ',\\s*'), ['1', '15', '24', '50']);
    assert.deepEqual(tokenize('1,15,,24,50,', ','), ['1', '15', '', '24', '50', '']);
    assert.deepEqual(tokenize('Some unparsed <br> HTML <BR> text', '\\s*<br>\\s*', 'i'), [
      'Some unparsed',
      'HTML',
      'text',
    ]);
    assert.deepEqual(tokenize('', ','), []);
  });

  test('replacement escapes, and the q flag making the replacement literal', () => {
    assert.equal(replace('a', 'a', '\\$1'), '$1');
    assert.equal(replace('a', 'a', '\\\\'), '\\');
    assert.equal(replace('a', '(a)', '$1$1', 'q'), 'a');
    assert.equal(replace('(a)', '(a)', '$1', 'q'), '$1');
  });

  test('groups are not tokens', () => {
    assert.deepEqual(tokenize('a1b2c', '(\\d)'), ['a', 'b', 'c']);
  });
});

describe('errors', () => {
  test('FORX0001: an unknown flag', () => {
    fails(() => matches('a', 'a', 'g'), 'FORX0001', /"g" is not a regular expression flag/);
  });

  test('FORX0002: what XPath refuses though JavaScript might take it', () => {
    const bad: [string, RegExp][] = [
      ['(', /"\(" is not closed/],
      ['a{,3}', /\{,m\}/],
      ['(?=a)', /\(\?: is allowed/],
      ['(?<n>a)', /\(\?: is allowed/],
      ['a**', /nothing before it to repeat/],
      ['[a', /"\[" is not closed/],
      ['\\b', /"\\b" is not an escape/],
      ['\\1(a)', /not closed before it/],
      ['x{3,1}', /wrong way round/],
      ['[z-a]', /higher character to a lower/],
      [']', /unescaped "\]"/],
      ['\\p{IsKlingon}', /Klingon is not a Unicode block/],
      ['\\p{Xx}', /not a Unicode general category/],
      ['[]', /empty/],
      ['\\', /lone "\\"/],
    ];
    for (const [pattern, message] of bad) fails(() => translateRegex(pattern, ''), 'FORX0002', message);
  });

  test('the error says where in the pattern', () => {
    fails(() => translateRegex('abc(', ''), 'FORX0002', /at character 4 of the pattern/);
  });

  test('FORX0003: replace and tokenize with a pattern that matches an empty string', () => {
    fails(() => replace('abc', 'x*', 'y'), 'FORX0003');
    fails(() => tokenize('abc', 'x?'), 'FORX0003');
  });

  test('FORX0004: a bad replacement string', () => {
    fails(() => replace('abc', 'b', '$'), 'FORX0004');
    fails(() => replace('abc', 'b', '\\n'), 'FORX0004');
  });
});

describe('whole-value matching for Metaschema constraints', () => {
  test('the pattern must match the whole value, whether or not it says ^ and $', () => {
    assert.equal(compileWholeMatch('[A-Z]{2}').test('US'), true);
    assert.equal(compileWholeMatch('[A-Z]{2}').test('USA'), false);
    assert.equal(compileWholeMatch('^[0-9a-fA-F]{64}$').test('ab'.repeat(32)), true);
    assert.equal(compileWholeMatch('a|b').test('ab'), false, 'alternatives are anchored as a whole');
  });

  test('compiled once per pattern', () => {
    assert.equal(compileWholeMatch('x+'), compileWholeMatch('x+'));
  });
});
