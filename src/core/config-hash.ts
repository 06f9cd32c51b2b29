/**
 * Rolling pods when their configuration changes (the `checksum/config` pattern, done for the user): the pod template
 * of a service carries a hash of the ConfigMaps and Secrets it mounts or takes env from, when they are defined in the
 * same app. The hash is computed when the manifest is rendered (synth), so content added after the service was created
 * counts, and it depends only on the content (the same content gives the same hash on every synthesis).
 */

import { createHash } from 'crypto';
import { ApiObject, Lazy } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CONFIG_HASH_ANNOTATION } from '../k8s/vocabulary';
import { checkArguments, req, str } from '../k8s/shape';

export { CONFIG_HASH_ANNOTATION };

/**
 * Whether and how the pod template carries {@link CONFIG_HASH_ANNOTATION}. Create with the static factories.
 */
export class ConfigHash {
  /** The pod-template annotation that carries the hash (`CONFIG_HASH_ANNOTATION`). */
  public static readonly ANNOTATION: string = CONFIG_HASH_ANNOTATION;

  /**
   * A hash of the content of every ConfigMap and Secret of the app that the service's containers mount or take env
   * from (through `Mount.fromConfigMap`, `Mount.fromSecret`, `EnvSource.fromConfigMap`, `EnvSource.fromSecret` and the
   * `…Object` factories for raw API objects). Objects referenced only by name are outside the app and not hashed. No
   * annotation when the service references no such object. The default.
   */
  public static auto(): ConfigHash {
    checkArguments('ConfigHash.auto', arguments, []);
    return new ConfigHash('Auto', undefined);
  }

  /** No annotation: changed configuration reaches the pods only when they restart for another reason. */
  public static disabled(): ConfigHash {
    checkArguments('ConfigHash.disabled', arguments, []);
    return new ConfigHash('Disabled', undefined);
  }

  /**
   * A hash of `value` (for configuration managed outside the app, e.g. its version or checksum) together with the
   * content of the app's ConfigMaps and Secrets the service references: changing `value` rolls the pods.
   */
  public static of(value: string): ConfigHash {
    checkArguments('ConfigHash.of', arguments, [['value', req(str)]]);
    return new ConfigHash('Value', value);
  }

  /** `Auto`, `Disabled` or `Value`. */
  public readonly mode: string;
  /** The value given to {@link ConfigHash.of}. */
  public readonly value?: string;

  private constructor(mode: string, value: string | undefined) {
    this.mode = mode;
    this.value = value;
  }
}

/** A ConfigMap or Secret of the app that a mount or env source references. @internal */
export interface ConfigSource {
  /** The kind the factory expects. */
  readonly kind: 'ConfigMap' | 'Secret';
  /** The cdk8s-plus resource or the raw API object. */
  readonly scope: IConstruct;
}

/** The API object behind `scope` (a raw ApiObject, or the one a cdk8s-plus resource renders), if any. */
function apiObjectOf(scope: unknown): ApiObject | undefined {
  if (ApiObject.isApiObject(scope)) return scope;
  const child = (scope as IConstruct | undefined)?.node?.defaultChild;
  return ApiObject.isApiObject(child) ? child : undefined;
}

/** Why `source` cannot be what a factory for `kind` expects, if it cannot. @internal */
export function configSourceProblem(source: ConfigSource | undefined): string | undefined {
  if (source === undefined) return undefined;
  const obj = apiObjectOf(source.scope);
  if (obj === undefined) return undefined;
  if (obj.kind !== source.kind || obj.apiVersion !== 'v1') {
    return `is a ${obj.apiVersion} ${obj.kind}, not a v1 ${source.kind}`;
  }
  return undefined;
}

/** The content of the referenced objects that rolls pods (data only: metadata changes never do). */
function contentOf(sources: ConfigSource[]): string[] {
  const entries = new Map<string, string>();
  for (const s of sources) {
    const obj = apiObjectOf(s.scope);
    if (obj === undefined) continue;
    const json = obj.toJson();
    const content = {
      kind: obj.kind,
      namespace: json.metadata?.namespace ?? null,
      name: obj.name,
      data: json.data ?? null,
      binaryData: json.binaryData ?? null,
      stringData: json.stringData ?? null,
    };
    entries.set(`${obj.kind}/${content.namespace ?? ''}/${obj.name}`, stableJson(content));
  }
  return [...entries.keys()].sort().map((k) => entries.get(k)!);
}

/** JSON with object keys in sorted order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether `hash` adds an annotation for `sources` (decided at construction: the set of references is fixed). @internal */
export function hasConfigHash(hash: ConfigHash, sources: ConfigSource[]): boolean {
  if (hash.mode === 'Disabled') return false;
  return hash.mode === 'Value' || sources.some((s) => apiObjectOf(s.scope) !== undefined);
}

/** The sha256 of the referenced content (and the given value), computed when the manifest is rendered. @internal */
export function lazyConfigHash(hash: ConfigHash, sources: ConfigSource[]): any {
  return Lazy.any({
    produce: () => {
      const parts = contentOf(sources);
      if (hash.mode === 'Value') parts.unshift(stableJson({ value: hash.value }));
      return createHash('sha256').update(parts.join('\n')).digest('hex');
    },
  });
}
