/**
 * The shape of the generated field data (`fields.generated.ts`, written by `scripts/gen-api-fields.ts`).
 */

/**
 * A field's value: a scalar type as the API server decodes it — `string`, `boolean`, `int32`, `int64`, `number`
 * (any JSON number), `byte` (a base64 string), `quantity` (a string or a number), `time` (a timestamp string) —, `%`
 * int-or-string (a string or an int32), `*` free-form (anything below it is accepted: `status`, RawExtension), `[X` a
 * list of X, `{X` a map (any keys) of X, anything else (a name with a dot) the name of an object type. A field that not every supported version
 * has is `[shape, from]` (`from` the first version that has it, `?` when only "after 1.28, by 1.33" is known) or
 * `[shape, '', until]` (the last version that has it, `?` when unknown).
 */
export type FieldEntry = string | string[];

/** The generated data. */
export interface ApiFieldData {
  /** Where each part of the data comes from. */
  readonly sources: { readonly [part: string]: string };
  /** Per `<apiVersion> <kind>`: its root type and, when not every supported version serves it, the first one that does. */
  readonly kinds: { readonly [apiVersionKind: string]: { readonly type: string; readonly from?: string; readonly fromSource?: string } };
  /** Object types by name: field name → entry. */
  readonly types: { readonly [type: string]: { readonly [field: string]: FieldEntry } };
  /** Per `<type>.<field>`: the changelog entry its first version comes from. */
  readonly firstVersionSources: { readonly [typeField: string]: string };
}
