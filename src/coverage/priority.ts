/**
 * Pod priority as the Priority admission plugin resolves it (`plugin/pkg/admission/priority`): `spec.priorityClassName`
 * names a PriorityClass whose `value` becomes `spec.priority` and whose `preemptionPolicy` becomes the pod's; without a
 * class name the `globalDefault` class applies, else priority 0. The two built-in classes always exist.
 */

import type { WirePodSpec, WirePriorityClass } from '../k8s/wire';

/** `system-cluster-critical`: pods at or above this priority are critical to the kubelet (`IsCriticalPod`). */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** The built-in PriorityClasses (`scheduling.SystemPriorityClasses`). */
const BUILT_IN: ReadonlyMap<string, number> = new Map([
  ['system-node-critical', SYSTEM_CRITICAL_PRIORITY + 1000],
  ['system-cluster-critical', SYSTEM_CRITICAL_PRIORITY],
]);

/** A pod's resolved priority. */
export interface PodPriority {
  /** The priority, or `undefined` when it names a PriorityClass that was not given. */
  readonly value: number | undefined;
  /** Whether the pod may preempt others (`preemptionPolicy` is not `Never`, on the pod or its class). */
  readonly preempts: boolean;
  /** The class name ("" when none). */
  readonly className: string;
}

interface ClassInfo {
  readonly value: number;
  readonly never: boolean;
}

/** The PriorityClasses known to an analysis. */
export class PriorityClasses {
  private readonly classes = new Map<string, ClassInfo>();
  private readonly globalDefault: ClassInfo | undefined;

  /** `objects` are PriorityClass objects (others are ignored). */
  public constructor(objects: readonly WirePriorityClass[] | undefined) {
    for (const [name, value] of BUILT_IN) this.classes.set(name, { value, never: false });
    let globalDefault: ClassInfo | undefined;
    for (const o of objects ?? []) {
      if (o?.kind !== undefined && o.kind !== 'PriorityClass') continue;
      const name = o?.metadata?.name;
      if (typeof name !== 'string' || typeof o?.value !== 'number' || !Number.isInteger(o.value)) continue;
      const info = { value: o.value, never: o.preemptionPolicy === 'Never' };
      this.classes.set(name, info);
      if (o.globalDefault === true && (globalDefault === undefined || info.value > globalDefault.value)) globalDefault = info;
    }
    this.globalDefault = globalDefault;
  }

  /** The priority of a pod spec; a numeric `spec.priority` (set on every live pod) wins over the class. */
  public resolve(spec: WirePodSpec | undefined): PodPriority {
    const className = typeof spec?.priorityClassName === 'string' ? spec.priorityClassName : '';
    const own = spec?.preemptionPolicy === 'Never';
    const info = className.length > 0 ? this.classes.get(className) : this.globalDefault;
    const value =
      typeof spec?.priority === 'number' && Number.isInteger(spec.priority)
        ? spec.priority
        : className.length > 0
          ? info?.value
          : (info?.value ?? 0);
    return { value, preempts: !own && !(info?.never ?? false), className };
  }
}
