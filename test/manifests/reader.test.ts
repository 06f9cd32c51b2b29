/**
 * The manifest reader: YAML 1.1 as kubectl reads it, one document at a time, problems with file:line:col, Helm
 * quirks, unrendered templates, and the positions of fields.
 */

import * as fc from 'fast-check';
import { load } from 'js-yaml';
import { parse } from 'yaml';
import {
  fieldPosition,
  InputError,
  parseManifests,
  parseObjects,
  parsePath,
  readDocuments,
  ReadProblemKind,
  YAML_11_SCHEMA,
} from '../../src/manifests';

const value = (scalar: string) => (load(`v: ${scalar}`, { schema: YAML_11_SCHEMA }) as any).v;

describe('YAML 1.1 scalars, as kubectl reads them', () => {
  test.each([
    ['0644', 420],
    ['0o17', '0o17'],
    ['yes', true],
    ['On', true],
    ['y', true],
    ['off', false],
    ['NO', false],
    ['1_000', 1000],
    ['0x1F', 31],
    ['0b101', 5],
    ['08', 8],
    ['1e3', 1000],
    ['.5', 0.5],
    ['-.inf', -Infinity],
    ['~', null],
    ['1:30', '1:30'],
    ['"0644"', '0644'],
    ["'yes'", 'yes'],
  ])('%s reads as %p', (scalar, expected) => {
    expect(value(scalar)).toEqual(expected);
  });

  test('plain scalars read as the `yaml` package reads them with version 1.1, except where go-yaml (kubectl) differs: base-60, bare exponents, 08/09', () => {
    const alphabet = fc.constantFrom(...'0123456789abefinoxyYNtTsu_.:+-e'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { minLength: 1, maxLength: 8 }), (chars) => {
        const text = chars.join('');
        if (
          /:/.test(text) ||
          // exponents: YAML 1.1 requires a signed exponent, go-yaml also reads unsigned ones (after dropping '_')
          /^[-+]?[0-9_]*(\.[0-9_.]*)?[eE]/.test(text) ||
          /^[-+]?0[0-9_]*[89]/.test(text) ||
          text === '.' ||
          /^[-+]?\.[eE_]/.test(text)
        )
          return;
        let ours: unknown;
        let theirs: unknown;
        try {
          ours = value(text);
          theirs = parse(`v: ${text}`, { version: '1.1' }).v;
        } catch {
          return; // not a plain scalar in one of them (e.g. a leading '-' sequence)
        }
        // the \`yaml\` package reads some non-numbers (e0, 0_, .e1) as NaN; go-yaml reads them as strings or numbers
        if (Number.isNaN(theirs) && !/^\.nan$/i.test(text)) return;
        expect([text, ours]).toEqual([text, theirs]);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('documents', () => {
  test('Helm output: # Source comments, leading ---, empty documents, --- # comment, ..., CRLF and a BOM', () => {
    const text =
      '\ufeff---\r\n# Source: chart/templates/a.yaml\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: a}\r\n' +
      '---\r\n# Source: chart/templates/empty.yaml\r\n--- # separator comment\r\n...\r\n' +
      '---\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: b\r\n...\r\n';
    const { objects, problems } = parseManifests(text, 'chart.yaml');
    expect(problems).toEqual([]);
    expect(objects.map((o) => [o.object.metadata.name, o.line])).toEqual([
      ['a', 3],
      ['b', 11],
    ]);
  });

  test('a broken document is a problem with its line and column; the documents around it are still read', () => {
    const text = 'kind: A\n---\nkind: B\nmetadata: {name: [x\n---\nkind: C\n';
    const { objects, problems } = parseManifests(text, 'f.yaml');
    expect(objects.map((o) => o.object.kind)).toEqual(['A', 'C']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: ReadProblemKind.SYNTAX, file: 'f.yaml', line: 5, column: 1 });
    expect(() => parseObjects(text, 'f.yaml')).toThrow(InputError);
    expect(() => parseObjects(text, 'f.yaml')).toThrow(/^f\.yaml:5:1: /);
  });

  test('an unrendered template is reported as a template at the first action, not as a YAML error', () => {
    const text = 'kind: A\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: {{ .Release.Name }}\n';
    const docs = [...readDocuments(text, 't.yaml')];
    expect(docs.map((d) => d.problem?.kind)).toEqual([undefined, ReadProblemKind.TEMPLATE]);
    expect(docs[1].problem).toMatchObject({ line: 6, column: 9 });
  });

  test('Go template text in values that are rendered output (Prometheus alert annotations) is not a template', () => {
    const text =
      'kind: PrometheusRule\nspec:\n  groups:\n    - rules:\n        - annotations: {summary: "{{ $labels.instance }} is down"}\n';
    expect(parseManifests(text, 'r.yaml').problems).toEqual([]);
  });

  test('a document that is not an object is a problem; an empty stream is none', () => {
    expect(parseManifests('just words\n', 'w.yaml').problems).toMatchObject([{ kind: ReadProblemKind.NOT_AN_OBJECT, line: 1 }]);
    expect(parseManifests('', 'e.yaml')).toEqual({ objects: [], problems: [], documents: 0 });
    expect(parseManifests('# only a comment\n---\n', 'c.yaml')).toEqual({ objects: [], problems: [], documents: 0 });
  });

  test("values read equal js-yaml's, aliases included; equal values of a stream are one string", () => {
    const text = [
      'metadata: {name: agent-with-a-long-name, labels: &l {app.kubernetes.io/name: agent-with-a-long-name, tier: node}}',
      'spec: {template: {metadata: {labels: *l}}, list: [registry.example.com/agent:1.2.3, short, 1, true, null]}',
      '---',
      'metadata: {name: agent-with-a-long-name}',
    ].join('\n');
    const docs = [...readDocuments(text, 'f.yaml')].map((d) => d.value as any);
    expect(docs[0]).toEqual(load(text.split('---')[0], { schema: YAML_11_SCHEMA }));
    expect(docs[0].spec.template.metadata.labels).toBe(docs[0].metadata.labels);
    expect(docs[1]).toEqual({ metadata: { name: 'agent-with-a-long-name' } });
  });

  test('aliases nested nine levels deep (a billion values if expanded) are read as shared values', () => {
    const levels = ['a0: &a0 [x, y, z, w, v, u, t, s, r, q]'];
    for (let i = 1; i <= 9; i++) levels.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    const [doc] = [...readDocuments(`kind: Config\n${levels.join('\n')}\n`, 'lol.yaml')];
    expect(doc.problem).toBeUndefined();
    expect((doc.value as any).a9[9][9][9][9][9][9][9][9][9][9]).toBe('q');
  });

  test('duplicate keys are refused, as kubectl refuses them', () => {
    expect(parseManifests('kind: A\nkind: B\n', 'd.yaml').problems).toMatchObject([{ kind: ReadProblemKind.SYNTAX, line: 2 }]);
  });
});

describe('field positions', () => {
  const text = [
    'apiVersion: apps/v1', // 1
    'kind: DaemonSet', // 2
    'metadata:', // 3
    '  name: agent', // 4
    "  labels: {app: agent, 'app.kubernetes.io/name': agent}", // 5
    'spec:', // 6
    '  template:', // 7
    '    spec:', // 8
    '      # the agent', // 9
    '      containers:', // 10
    '        - name: agent', // 11
    '          image: example/agent:latest', // 12
    '          volumeMounts:', // 13
    '            - {name: sock, mountPath: /run/containerd/containerd.sock}', // 14
    '',
  ].join('\n');
  const [object] = parseManifests(`# leading comment\n---\n${text}`, 'p.yaml').objects;

  test.each([
    ['spec.template.spec.containers[0].image', 14, 11],
    ["metadata.labels['app.kubernetes.io/name']", 7, 24],
    ['spec.template.spec.containers[0].volumeMounts[0]', 16, 15],
    ['spec.template.spec.containers[0].volumeMounts[0].readOnly', 16, 15],
    ['spec.template.spec.containers[0].resources.limits.memory', 13, 11],
    ['spec.template.spec.securityContext', 10, 5],
    ['kind', 4, 1],
  ])('%s is at line %d, column %d (the nearest existing field when it is missing)', (path, line, column) => {
    expect(fieldPosition(object, path)).toEqual({ line, column });
  });

  test('items of a List are located inside the List', () => {
    const list = 'apiVersion: v1\nkind: List\nitems:\n  - kind: A\n    metadata: {name: a}\n  - kind: B\n    spec:\n      x: 1\n';
    const objects = parseManifests(list, 'l.yaml').objects;
    expect(objects.map((o) => o.object.kind)).toEqual(['A', 'B']);
    expect(fieldPosition(objects[1], 'spec.x')).toEqual({ line: 8, column: 7 });
  });

  test('JSON input is located too', () => {
    const json = '{\n  "kind": "DaemonSet",\n  "spec": {"template": {"spec": {"hostNetwork": true}}}\n}\n';
    const [o] = parseManifests(json, 'j.json').objects;
    expect(fieldPosition(o, 'spec.template.spec.hostNetwork')).toEqual({ line: 3, column: 34 });
  });

  test('paths as the rules write them', () => {
    expect(parsePath("spec.template.spec.containers[0].env[2]['a.b/c']")).toEqual([
      'spec',
      'template',
      'spec',
      'containers',
      0,
      'env',
      2,
      'a.b/c',
    ]);
    expect(parsePath("metadata.annotations['it\\'s']")).toEqual(['metadata', 'annotations', "it's"]);
    expect(parsePath('a[x]')).toBeUndefined();
  });
});
