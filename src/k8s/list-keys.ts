/**
 * How the items of a Kubernetes list are identified, per field name of the lists a DaemonSet and its pod template
 * hold: the `patchMergeKey` / `listMapKey`s of the Kubernetes API types (`k8s.io/api/core/v1/types.go`), plus a few
 * lists Kubernetes treats as atomic but whose items have a natural identity (tolerations, sysctls, capabilities,
 * selector requirements). Used to compare two versions of a list item by item instead of position by position.
 */

/** Whether the order of a list's items means something to Kubernetes. */
export enum ListOrder {
  /** The order changes what the pod does (the note says how). */
  MEANINGFUL = 'meaningful',
  /** Kubernetes gives the order no meaning: only the pod template (and so its hash) changes. */
  NONE = 'none',
}

/** How the items of one list are identified. */
export interface ListKey {
  /** The fields that together identify an item; empty when the item is a string identified by itself. */
  readonly fields: readonly string[];
  /** Key fields an item must have (a string or a number); an item without one makes the list compared by position. */
  readonly required: readonly string[];
  /** The value an absent key field means (the API server's default, or the operator's meaning when empty). */
  readonly defaults: { readonly [field: string]: string };
  /** Whether the order means something. */
  readonly order: ListOrder;
  /** What the order means, or why it means nothing, in words. */
  readonly orderNote: string;
}

const NO_ORDER = 'Kubernetes gives the order of this list no meaning';

function byFields(
  fields: readonly string[],
  order: ListOrder,
  orderNote: string,
  options: { required?: readonly string[]; defaults?: { [field: string]: string } } = {},
): ListKey {
  return { fields, required: options.required ?? fields, defaults: options.defaults ?? {}, order, orderNote };
}

function byName(order: ListOrder, orderNote: string): ListKey {
  return byFields(['name'], order, orderNote);
}

/** A list of strings that is a set: each item is identified by itself. */
const STRING_SET: ListKey = { fields: [], required: [], defaults: {}, order: ListOrder.NONE, orderNote: NO_ORDER };

/**
 * The lists of a DaemonSet (and its pod template) by field name. A field name means the same list wherever it occurs
 * in a DaemonSet (`ports` is only a container's, `env` only a container's, `values` only a selector requirement's).
 */
export const LIST_KEYS: { readonly [field: string]: ListKey } = {
  containers: byName(
    ListOrder.MEANINGFUL,
    'the kubelet starts the containers in this order, and the first is the default of kubectl logs/exec',
  ),
  initContainers: byName(ListOrder.MEANINGFUL, 'init containers run (and sidecar init containers start) one after another in this order'),
  ephemeralContainers: byName(ListOrder.NONE, NO_ORDER),
  volumes: byName(ListOrder.NONE, NO_ORDER),
  imagePullSecrets: byName(ListOrder.NONE, NO_ORDER),
  resourceClaims: byName(ListOrder.NONE, NO_ORDER),
  schedulingGates: byName(ListOrder.NONE, NO_ORDER),
  claims: byName(ListOrder.NONE, NO_ORDER),
  sysctls: byName(ListOrder.NONE, NO_ORDER),
  env: byName(
    ListOrder.MEANINGFUL,
    '$(VAR) references expand only variables defined earlier in the list, and of two with one name the last wins',
  ),
  volumeMounts: byFields(
    ['mountPath'],
    ListOrder.MEANINGFUL,
    'the mounts are handed to the container runtime in this order, which matters for nested mount paths',
  ),
  volumeDevices: byFields(['devicePath'], ListOrder.NONE, NO_ORDER),
  ports: byFields(['containerPort', 'protocol'], ListOrder.NONE, NO_ORDER, { required: ['containerPort'], defaults: { protocol: 'TCP' } }),
  hostAliases: byFields(
    ['ip'],
    ListOrder.MEANINGFUL,
    '/etc/hosts lists the entries in this order (a name in two entries resolves to the first)',
  ),
  topologySpreadConstraints: byFields(['topologyKey', 'whenUnsatisfiable'], ListOrder.NONE, NO_ORDER),
  tolerations: byFields(
    ['key', 'operator', 'value', 'effect'],
    ListOrder.NONE,
    'any matching toleration tolerates a taint, whatever its place',
    {
      required: [],
      defaults: { operator: 'Equal' },
    },
  ),
  matchExpressions: byFields(['key', 'operator'], ListOrder.NONE, 'the requirements are ANDed, whatever their order'),
  ownerReferences: byFields(['uid'], ListOrder.NONE, NO_ORDER),
  add: STRING_SET,
  drop: STRING_SET,
  values: STRING_SET,
};

/** The key of the list held by the field `field`, if it is one of {@link LIST_KEYS}. */
export function listKeyOf(field: string | undefined): ListKey | undefined {
  return field !== undefined && Object.prototype.hasOwnProperty.call(LIST_KEYS, field) ? LIST_KEYS[field] : undefined;
}
