/** YAML alias bombs, language-specific tags and broken YAML: 400; YAML that is no OSCAL: 422. */
import { catalogYaml, everyTextWrite, YAML_TYPE, type Category } from './case.js';

/** Nine levels of ten aliases each: a billion nodes if anything expanded it. */
const ALIAS_BOMB = `a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]
${Array.from({ length: 9 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(',')}]`).join('\n')}
catalog: *a9
`;

const MALFORMED: Record<string, string> = {
  'alias bomb': ALIAS_BOMB,
  'alias bomb inside the document': catalogYaml(`  back-matter: &r\n    resources: [*r, *r]\n`),
  'alias of the metadata': `${catalogYaml()}  params: &p [{id: p1}]\n  controls: [{id: c1, title: t, params: *p}]\n`,
  'merge key from an anchor':
    catalogYaml().replace('  metadata:\n', '  metadata: &m\n') + '  back-matter:\n    <<: *m\n',
  'self-referencing anchor': 'catalog: &c\n  uuid: x\n  metadata: *c\n',
  'JavaScript function tag': catalogYaml().replace(
    'title: Hostile',
    'title: !!js/function "function () { return process.exit(1) }"',
  ),
  'Python object tag': catalogYaml().replace('title: Hostile', 'title: !!python/object/apply:os.system ["true"]'),
  'verbatim regexp tag': catalogYaml().replace('title: Hostile', 'title: !<tag:yaml.org,2002:js/regexp> /x/'),
  'local tag': catalogYaml().replace('title: Hostile', 'title: !evil x'),
  'binary tag': catalogYaml().replace('title: Hostile', 'title: !!binary aGVsbG8='),
  'duplicate key': catalogYaml().replace('title: Hostile', 'title: Hostile\n    title: Again'),
  'tab indentation': catalogYaml().replace('    title', '\ttitle'),
  'unterminated double quote': catalogYaml().replace('title: Hostile', 'title: "Hostile'),
  'unterminated flow sequence': 'catalog: [a, b\n',
  'unbalanced flow mapping': 'catalog: {uuid: [1, 2}\n',
  'two documents': `${catalogYaml()}---\n${catalogYaml()}`,
  'unknown directive version': `%YAML 9.9\n---\n${catalogYaml()}`,
  'NUL byte': catalogYaml().replace('Hostile', 'Hos\u0000tile'),
  'a complex key': `${catalogYaml()}  ? [a, b]\n  : c\n`,
  'JSON cut short': '{"catalog": {',
  'bad indentation': 'catalog:\n  uuid: x\n metadata: y\n',
};

const NOT_OSCAL: Record<string, string> = {
  'a scalar only': 'catalog',
  'a sequence at the root': '- catalog\n- profile\n',
  'an empty model': 'catalog: {}\n',
  'an implicit key of 2000 characters': `${'k'.repeat(2000)}: v\n`,
  'YAML 1.1 booleans where strings belong': catalogYaml().replace('title: Hostile', 'title: [yes, no, on, off]'),
  'an unknown property': catalogYaml('  evil: true\n'),
  'a null uuid': catalogYaml().replace(/uuid: .*/, 'uuid: ~'),
};

export const yaml: Category = {
  name: 'YAML: alias bombs, tags, malformed',
  cases: (seeds) => [
    ...Object.entries(MALFORMED).flatMap(([name, body]) => everyTextWrite(seeds, name, YAML_TYPE, () => body, 400)),
    ...Object.entries(NOT_OSCAL).flatMap(([name, body]) => everyTextWrite(seeds, name, YAML_TYPE, () => body, 422)),
  ],
};
