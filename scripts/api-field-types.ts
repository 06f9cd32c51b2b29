/**
 * The scalar types of the field tables that `gen-api-fields.ts` writes: the JSON type of a TypeScript declaration
 * (`string`, `boolean`, `number`), then the integer width and byte strings, which no declaration carries, read from
 * the 1.33 `_schemas` validators of kubernetes-models.
 */

import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..');
const MODELS = path.join(ROOT, 'node_modules', 'kubernetes-models');

/** A field of the merged tree, as far as its type goes: the shape (see `gen-api-fields.ts`). */
export interface TypedField {
  shape: string;
}

/**
 * The shape of a TypeScript keyword or literal type: `string`, `boolean`, `number` (made `int32`, `int64` or kept
 * `number` by {@link refineScalars}), `*` for `any`/`unknown`; `undefined` for any other node.
 */
export function keywordShape(node: ts.TypeNode): string | undefined {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return 'string';
    case ts.SyntaxKind.NumberKeyword:
      return 'number';
    case ts.SyntaxKind.BooleanKeyword:
      return 'boolean';
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
      return '*';
  }
  if (ts.isLiteralTypeNode(node)) {
    const lit = node.literal;
    if (ts.isStringLiteral(lit)) return 'string';
    if (ts.isNumericLiteral(lit)) return 'number';
    if (lit.kind === ts.SyntaxKind.TrueKeyword || lit.kind === ts.SyntaxKind.FalseKeyword) return 'boolean';
  }
  return undefined;
}

/** A compiled `_schemas` validator of kubernetes-models (ajv): errors carry the JSON pointer of the value. */
type SchemaValidate = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; params: { type?: string; format?: string } }> | null;
};

/** The 1.33 validator of a merged type (`core.v1.PodSpec` → `IoK8sApiCoreV1PodSpec`), or `undefined`. */
function schemaValidator(type: string): SchemaValidate | undefined {
  const [group, version, kind] = type.split('.');
  const cap = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);
  const candidates = [
    path.join(MODELS, '_schemas', `IoK8sApi${cap(group)}${cap(version)}${kind}.js`),
    path.join(
      ROOT,
      'node_modules',
      '@kubernetes-models',
      'apimachinery',
      '_schemas',
      `IoK8sApimachineryPkgApis${cap(group)}${cap(version)}${kind}.js`,
    ),
  ];
  const file = candidates.find((f) => fs.existsSync(f));
  return file === undefined ? undefined : (require(file).validate as SchemaValidate);
}

/** The `type`/`format` errors the validator reports at field `field` (through the list and map levels of `prefix`) for `value`. */
function probe(
  validate: SchemaValidate,
  field: string,
  prefix: string,
  value: unknown,
): Array<{ keyword: string; type?: string; format?: string }> {
  let data = value;
  let at = '';
  for (let i = prefix.length - 1; i >= 0; i--) {
    data = prefix[i] === '[' ? [data] : { k: data };
    at = (prefix[i] === '[' ? '/0' : '/k') + at;
  }
  validate({ [field]: data });
  const pointer = `/${field}${at}`;
  return (validate.errors ?? [])
    .filter((e) => e.instancePath === pointer && (e.keyword === 'type' || e.keyword === 'format'))
    .map((e) => ({ keyword: e.keyword, type: e.params.type, format: e.params.format }));
}

/**
 * Integer widths and byte strings, which the TypeScript declarations of either version do not carry: read from the
 * 1.33 `_schemas` validators, compiled from the OpenAPI document's `type` and `format` (`integer`/`int32`,
 * `integer`/`int64`, `number`/`double`, `string`/`byte`), by asking each validator about one value: a string (is the
 * field checked at all?), 1.5 (integer or number), 2^31 (int32 or int64), `%%%` (base64 or not). A type only 1.28
 * has is asked through the same type of the group's `v1` (the v1beta1 admission policy types are the v1 ones).
 * Returns the numeric fields no validator knows; they stay `number` (any JSON number, the check that refuses least).
 */
export function refineScalars(types: Map<string, Map<string, TypedField>>): string[] {
  const unknown: string[] = [];
  for (const [name, fields] of types) {
    const own = schemaValidator(name);
    const v1 = schemaValidator(name.replace(/^(\w+)\.\w+\./, '$1.v1.'));
    for (const [f, mf] of fields) {
      const prefix = /^[[{]*/.exec(mf.shape)![0];
      const leaf = mf.shape.slice(prefix.length);
      if (leaf !== 'number' && leaf !== 'string') continue;
      const validate = [own, v1].find((v) => v !== undefined && probe(v, f, prefix, leaf === 'number' ? 'x' : 1).length > 0);
      if (validate === undefined) {
        if (leaf === 'number') unknown.push(`${name}.${f}`);
        continue;
      }
      let refined = leaf;
      if (leaf === 'string') {
        if (probe(validate, f, prefix, '%%%').some((e) => e.format === 'byte')) refined = 'byte';
      } else if (probe(validate, f, prefix, 1.5).some((e) => e.type === 'integer')) {
        refined = probe(validate, f, prefix, 2 ** 31).some((e) => e.format === 'int32') ? 'int32' : 'int64';
      }
      mf.shape = prefix + refined;
    }
  }
  return unknown;
}
