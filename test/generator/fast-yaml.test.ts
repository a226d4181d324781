import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { fastYamlData } from '../../generator/load/fast-yaml.js';

const viaYaml = (text: string): unknown => parseDocument(text, { uniqueKeys: true }).toJS() ?? null;

describe('fast YAML reading', () => {
  it('reads every core scalar as the yaml package does', () => {
    const scalars = [
      '~',
      'null',
      'Null',
      'NULL',
      '',
      'true',
      'True',
      'TRUE',
      'false',
      'FALSE',
      'yes',
      'no',
      'on',
      'off',
      'y',
      '0',
      '-0',
      '+12',
      '007',
      '0o17',
      '0o19',
      '0x1F',
      '0X1F',
      '0b101',
      '1_000',
      '12345678901234567890',
      '1.5',
      '-.5',
      '+1.',
      '1.50',
      '1e3',
      '1E-3',
      '.5e2',
      '-1.5e+2',
      '.inf',
      '-.Inf',
      '+.INF',
      '.nan',
      '.NaN',
      'nan',
      'inf',
      '2024-01-01',
      '12:30',
      '1:20:30',
      '0.1.2',
      'string',
      '"quoted 1"',
      "'single'",
      '"true"',
      '[1, two, 3.0]',
      '{ a: 1, b: [x, null] }',
    ];
    const text = scalars.map((s, i) => `k${i}: ${s}`).join('\n');
    expect(fastYamlData(text)).toStrictEqual(viaYaml(text));
  });

  it('reads block scalars, flow collections, comments and nesting as the yaml package does', () => {
    const text = [
      '# a schema file',
      'resources:',
      '  Note:',
      '    fields:',
      '      title: { type: string, max: 200, validate: ["regex:^[^<>]*$", "min:1"] }  # trailing',
      '      body:',
      '        type: text',
      '        description: |',
      '          Two lines,',
      '          kept.',
      '      summary: >-',
      '        folded',
      '        text',
      '    indexes: [[title], [title, body]]',
      'routes:',
      '  notes.list: { method: GET, path: "/notes" }',
      '',
    ].join('\n');
    expect(fastYamlData(text)).toStrictEqual(viaYaml(text));
  });

  it('gives null for an empty document, as the yaml package does', () => {
    expect(fastYamlData('')).toBeNull();
    expect(fastYamlData('# only a comment\n')).toBeNull();
  });

  it('leaves to the yaml package what the two could read differently, and every error', () => {
    for (const text of [
      'a: &x 1\nb: *x', // anchors and aliases
      'a: !!str 1', // tags
      '? a\n: 1', // explicit keys
      'a: 1\n<<: { b: 2 }', // merge key
      '%YAML 1.2\n---\na: 1', // directives
      'null: 1', // a key yaml reads as null
      '~: 1',
      '__proto__: { a: 1 }',
      'a: 1\na: 2', // duplicate key
      'a: [1, 2', // syntax error
      'a: 1\n---\nb: 2', // two documents
      'fields: { tags: string[] }', // a bare list type in a flow map
    ])
      expect(fastYamlData(text), text).toBeUndefined();
  });

  it('still reads values that contain those characters inside a word', () => {
    const text = 'a: "x&y"\nb: "regex:^[^<>]*$"\nc: what?\nd: "a!b"\ne: a*b';
    expect(fastYamlData(text)).toStrictEqual(viaYaml(text));
  });
});
