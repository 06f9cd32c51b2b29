/**
 * The role of a container in a node-service pod: the main container (the agent, the driver), an init container, a
 * sidecar of unknown purpose, or a sidecar with a known role — the Kubernetes CSI sidecars (`livenessprobe`,
 * `node-driver-registrar`, the `csi-provisioner` family), recognised by the image repository upstream publishes them
 * under (`registry.k8s.io/sig-storage/livenessprobe`, mirrors such as
 * `public.ecr.aws/eks-distro/kubernetes-csi/livenessprobe` or `mcr.microsoft.com/oss/kubernetes-csi/livenessprobe`).
 * Rules whose answer depends on what a container is for ask here, in one place. A container's name is not evidence
 * (any main container may be called `liveness-probe`), so a role is only given for a recognised image.
 */

/** What a container is for. The values are the strings reports print. */
export enum ContainerRole {
  /** A main container (`containers[]`) that is not a known sidecar: the agent or driver itself. */
  MAIN = 'main',
  /** An init container that runs to completion before the main containers start. */
  INIT = 'init',
  /** A restartable init container (`restartPolicy: Always`) of no known role: a sidecar that keeps running. */
  SIDECAR = 'sidecar',
  /** The CSI `livenessprobe` sidecar: it serves `/healthz` for the driver's liveness probe, by calling the driver. */
  CSI_LIVENESS_PROBE = 'csi-livenessprobe',
  /** The CSI `node-driver-registrar` sidecar: it registers the driver's socket with the kubelet. */
  CSI_NODE_DRIVER_REGISTRAR = 'csi-node-driver-registrar',
  /** A CSI controller sidecar run per node (`csi-provisioner`, `csi-attacher`, `csi-resizer`, `csi-snapshotter`…). */
  CSI_CONTROLLER_SIDECAR = 'csi-controller-sidecar',
}

/** A known sidecar: its role, the image repository names (last path element) it ships as, and what it is, in words. */
interface KnownSidecar {
  readonly role: ContainerRole;
  readonly images: readonly string[];
  readonly words: string;
}

/** The known sidecars, from the images upstream publishes (kubernetes-csi, and the vendors' mirrors of them). */
const KNOWN_SIDECARS: readonly KnownSidecar[] = [
  { role: ContainerRole.CSI_LIVENESS_PROBE, images: ['livenessprobe'], words: 'the CSI livenessprobe sidecar' },
  {
    role: ContainerRole.CSI_NODE_DRIVER_REGISTRAR,
    images: ['csi-node-driver-registrar', 'node-driver-registrar'],
    words: 'the CSI node-driver-registrar sidecar',
  },
  {
    role: ContainerRole.CSI_CONTROLLER_SIDECAR,
    images: [
      'csi-provisioner',
      'csi-attacher',
      'csi-resizer',
      'csi-snapshotter',
      'csi-external-health-monitor-controller',
      'external-provisioner',
      'external-attacher',
      'external-resizer',
      'external-snapshotter',
    ],
    words: 'a CSI controller sidecar',
  },
];

/** The repository name of an image reference: its last path element, without tag and digest. */
function repositoryName(image: unknown): string {
  if (typeof image !== 'string') return '';
  const noDigest = image.split('@')[0];
  const last = noDigest.split('/').pop() ?? '';
  return last.split(':')[0].toLowerCase();
}

/**
 * The role of a container: a known sidecar by its image (wherever it is listed: the CSI sidecars are main containers
 * of the pod, or restartable init containers), else `INIT` for an init container that runs to completion, `SIDECAR`
 * for a restartable one, `MAIN` for the rest.
 */
export function containerRole(container: unknown, init: boolean): ContainerRole {
  const c = typeof container === 'object' && container !== null ? (container as Record<string, unknown>) : {};
  const restartable = init && c.restartPolicy === 'Always';
  if (!init || restartable) {
    const repo = repositoryName(c.image);
    const known = KNOWN_SIDECARS.find((k) => k.images.includes(repo));
    if (known !== undefined) return known.role;
  }
  if (init) return restartable ? ContainerRole.SIDECAR : ContainerRole.INIT;
  return ContainerRole.MAIN;
}

/** Whether a role is a helper sidecar with a known job: its health and readiness are the main container's concern. */
export function isKnownSidecar(role: ContainerRole): boolean {
  return KNOWN_SIDECARS.some((k) => k.role === role);
}

/** A role in words, for messages (`the CSI livenessprobe sidecar`); `undefined` for a main or plain init container. */
export function roleWords(role: ContainerRole): string | undefined {
  if (role === ContainerRole.SIDECAR) return 'a sidecar';
  return KNOWN_SIDECARS.find((k) => k.role === role)?.words;
}
