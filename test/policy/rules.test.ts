/**
 * Every rule of the catalogue with at least one non-compliant and one compliant manifest.
 */

import { KubernetesVersion } from '../../src/k8s/api-fields';
import { RuleConfig } from '../../src/policy/config';
import { checkManifests } from '../../src/policy/engine';
import { ON_DELETE_REASON_ANNOTATION } from '../../src/policy/host-access';
import { KIND_ANNOTATION } from '../../src/policy/kinds';
import { RULES } from '../../src/policy/rules';
import { TRUST_LABEL_KEY } from '../../src/admission/trust-label';
import { synthGuardrails } from '../guardrails/fixtures';
import { compliantDaemonSet, mainContainer, namespaceObject, podOf } from './support';

/** Guardrail policies (as NodeServiceGuardrails renders them) and the trusted `logging` Namespace. */
const guardrails = (registryAllowlist: string[]) => [
  ...synthGuardrails({ contact: '#platform-team', platformGroups: ['platform-admins'], registryAllowlist }),
  namespaceObject('logging', { [TRUST_LABEL_KEY]: 'true' }),
];

interface Case {
  /** Rule id under test. */
  readonly rule: string;
  /** What the case shows. */
  readonly name: string;
  /** Node-service kind of the DaemonSet. */
  readonly kind?: string;
  /** Changes the compliant DaemonSet. */
  readonly mutate: (ds: any) => void;
  /** Other manifests checked together with the DaemonSet. */
  readonly others?: any[];
  /** Rule configuration. */
  readonly config?: RuleConfig;
}

interface BadCase extends Case {
  /** JSON path the finding must name. */
  readonly path: string;
  /** Text the message must contain (the bad value). */
  readonly message?: RegExp;
  /** The severity expected for the case's kind, when it is not the rule's default. */
  readonly severity?: string;
}

const sidecarInit = (ds: any, extra: any = {}) => {
  podOf(ds).initContainers = [
    {
      name: 'init-config',
      image: 'busybox:1.36',
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
      ...extra,
    },
  ];
};

/** A ServiceAccount fluent-bit in logging with a ClusterRole of one rule bound to it. */
const rbacFor = (rule: any) => [
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fluent-bit', namespace: 'logging' } },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'fluent-bit' }, rules: [rule] },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'fluent-bit' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'fluent-bit' },
    subjects: [{ kind: 'ServiceAccount', name: 'fluent-bit', namespace: 'logging' }],
  },
];

const C0 = 'spec.template.spec.containers[0]';
const POD = 'spec.template.spec';

const nonCompliant: BadCase[] = [
  // API validity
  {
    rule: 'daemonset-api-version',
    name: 'extensions/v1beta1',
    mutate: (ds) => (ds.apiVersion = 'extensions/v1beta1'),
    path: 'apiVersion',
    message: /extensions\/v1beta1/,
  },
  { rule: 'daemonset-spec-invalid', name: 'no containers', mutate: (ds) => (podOf(ds).containers = []), path: `${POD}.containers` },
  {
    rule: 'daemonset-spec-invalid',
    name: 'activeDeadlineSeconds',
    mutate: (ds) => (podOf(ds).activeDeadlineSeconds = 60),
    path: `${POD}.activeDeadlineSeconds`,
    message: /60/,
  },
  {
    rule: 'daemonset-spec-invalid',
    name: 'negative minReadySeconds',
    mutate: (ds) => (ds.spec.minReadySeconds = -1),
    path: 'spec.minReadySeconds',
    message: /-1/,
  },
  { rule: 'selector-invalid', name: 'missing selector', mutate: (ds) => delete ds.spec.selector, path: 'spec.selector' },
  { rule: 'selector-invalid', name: 'empty selector', mutate: (ds) => (ds.spec.selector = {}), path: 'spec.selector', message: /empty/ },
  {
    rule: 'selector-invalid',
    name: 'In without values',
    mutate: (ds) => (ds.spec.selector.matchExpressions = [{ key: 'tier', operator: 'In', values: [] }]),
    path: 'spec.selector.matchExpressions[0]',
    message: /In/,
  },
  {
    rule: 'selector-template-mismatch',
    name: 'template instance differs',
    mutate: (ds) => (ds.spec.template.metadata.labels['app.kubernetes.io/instance'] = 'other'),
    path: 'spec.template.metadata.labels',
    message: /other/,
  },
  {
    rule: 'rolling-update-invalid',
    name: 'maxSurge alone (maxUnavailable defaults to 1)',
    mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxSurge: 1 }),
    path: 'spec.updateStrategy.rollingUpdate.maxSurge',
    message: /defaults to 1/,
  },
  {
    rule: 'rolling-update-invalid',
    name: 'both zero',
    mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: '0%' }),
    path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
    message: /both zero/,
  },
  {
    rule: 'rolling-update-invalid',
    name: 'percentage without %',
    mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: '10' }),
    path: 'spec.updateStrategy.rollingUpdate.maxUnavailable',
    message: /'10'/,
  },
  {
    rule: 'rolling-update-invalid',
    name: 'unknown type',
    mutate: (ds) => (ds.spec.updateStrategy = { type: 'Recreate' }),
    path: 'spec.updateStrategy.type',
    message: /Recreate/,
  },
  {
    rule: 'privileged-escalation-conflict',
    name: 'privileged with APE false',
    kind: 'csi-node',
    mutate: (ds) => (mainContainer(ds).securityContext.privileged = true),
    path: `${C0}.securityContext.allowPrivilegeEscalation`,
  },
  {
    rule: 'sys-admin-escalation-conflict',
    name: 'CAP_SYS_ADMIN with APE false',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['CAP_SYS_ADMIN']),
    path: `${C0}.securityContext.capabilities.add[0]`,
    message: /CAP_SYS_ADMIN/,
  },
  {
    rule: 'bidirectional-propagation-unprivileged',
    name: 'Bidirectional in an unprivileged container',
    mutate: (ds) => (mainContainer(ds).volumeMounts[0].mountPropagation = 'Bidirectional'),
    path: `${C0}.volumeMounts[0].mountPropagation`,
    message: /\/var\/log/,
  },
  {
    rule: 'toleration-invalid',
    name: 'Exists with a value',
    mutate: (ds) => (podOf(ds).tolerations = [{ key: 'gpu', operator: 'Exists', value: 'true' }]),
    path: `${POD}.tolerations[0].value`,
    message: /'true'/,
  },
  {
    rule: 'toleration-invalid',
    name: 'empty key with Equal',
    mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Equal', value: 'x' }]),
    path: `${POD}.tolerations[0].operator`,
    message: /Exists/,
  },
  {
    rule: 'toleration-invalid',
    name: 'tolerationSeconds with NoSchedule',
    mutate: (ds) => (podOf(ds).tolerations = [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }]),
    path: `${POD}.tolerations[0].tolerationSeconds`,
    message: /NoSchedule/,
  },
  {
    rule: 'node-selector-invalid',
    name: 'In without values',
    mutate: (ds) =>
      (podOf(ds).affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In' }] }] },
        },
      }),
    path: `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]`,
    message: /at least one value/,
  },
  {
    rule: 'node-selector-invalid',
    name: 'Gt with two values',
    mutate: (ds) =>
      (podOf(ds).affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/gpus', operator: 'Gt', values: ['1', '2'] }] }],
          },
        },
      }),
    path: `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]`,
    message: /exactly one value \(has 2\)/,
  },
  {
    // ValidateNodeSelectorRequirement checks only that Gt/Lt have one value: accepted, but the term never matches
    rule: 'node-selector-invalid',
    name: 'Gt on a value that is no integer (a warning: the term never matches)',
    mutate: (ds) =>
      (podOf(ds).affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/gpus', operator: 'Gt', values: ['two'] }] }],
          },
        },
      }),
    path: `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0]`,
    message: /the API server accepts this requirement, but its term never matches a node: .*"two": Gt needs a base-10 64-bit integer/,
    severity: 'warning',
  },
  {
    rule: 'node-selector-invalid',
    name: 'nodeSelector key with a space',
    mutate: (ds) => (podOf(ds).nodeSelector = { 'node pool': 'gpu' }),
    path: `${POD}.nodeSelector['node pool']`,
    message: /node pool/,
  },
  {
    rule: 'node-selector-invalid',
    name: 'preferred weight 0',
    mutate: (ds) =>
      (podOf(ds).affinity = {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } },
          ],
        },
      }),
    path: `${POD}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight`,
  },
  {
    rule: 'object-name-invalid',
    name: 'upper case and underscore',
    mutate: (ds) => (ds.metadata.name = 'Fluent_Bit'),
    path: 'metadata.name',
    message: /Fluent_Bit/,
  },
  {
    rule: 'object-name-invalid',
    name: 'namespace with a dot',
    mutate: (ds) => (ds.metadata.namespace = 'team.logging'),
    path: 'metadata.namespace',
    message: /team\.logging/,
  },
  {
    rule: 'label-invalid',
    name: 'value with a space',
    mutate: (ds) => (ds.metadata.labels.team = 'log team'),
    path: 'metadata.labels.team',
    message: /log team/,
  },
  {
    // the API server cannot decode a number into a label value (map[string]string): reported once, as its type
    rule: 'field-type-invalid',
    name: 'numeric label value on the template',
    mutate: (ds) => (ds.spec.template.metadata.labels.tier = 3),
    path: 'spec.template.metadata.labels.tier',
    message: /is the number 3; a string goes here/,
  },
  {
    rule: 'field-type-invalid',
    name: 'hostNetwork as the string "true"',
    mutate: (ds) => (podOf(ds).hostNetwork = 'true'),
    path: `${POD}.hostNetwork`,
    message: /is the string "true"; a boolean/,
  },
  {
    rule: 'annotation-invalid',
    name: 'key with a space',
    mutate: (ds) => (ds.metadata.annotations['owner team'] = 'x'),
    path: "metadata.annotations['owner team']",
  },
  {
    rule: 'annotation-invalid',
    name: 'oversized annotations',
    mutate: (ds) => (ds.metadata.annotations['example.com/blob'] = 'x'.repeat(262145)),
    path: 'metadata.annotations',
    message: /262144/,
  },
  {
    rule: 'quantity-invalid',
    name: '512MB',
    mutate: (ds) => (mainContainer(ds).resources.limits.memory = '512MB'),
    path: `${C0}.resources.limits.memory`,
    message: /512MB/,
  },
  {
    rule: 'quantity-invalid',
    name: 'emptyDir sizeLimit 1h',
    mutate: (ds) => podOf(ds).volumes.push({ name: 'tmp', emptyDir: { sizeLimit: '1h' } }),
    path: `${POD}.volumes[1].emptyDir.sizeLimit`,
    message: /1h/,
  },
  {
    rule: 'requests-exceed-limits',
    name: 'memory request above limit',
    mutate: (ds) => (mainContainer(ds).resources.requests.memory = '512Mi'),
    path: `${C0}.resources.requests.memory`,
    message: /512Mi.*256Mi/,
  },
  {
    rule: 'container-name-invalid',
    name: 'upper case',
    mutate: (ds) => (mainContainer(ds).name = 'FluentBit'),
    path: `${C0}.name`,
    message: /FluentBit/,
  },
  { rule: 'container-name-invalid', name: 'missing', mutate: (ds) => delete mainContainer(ds).name, path: `${C0}.name` },
  {
    rule: 'duplicate-container-name',
    name: 'init container with the main name',
    mutate: (ds) => sidecarInit(ds, { name: 'fluent-bit' }),
    path: 'spec.template.spec.initContainers[0].name',
    message: /fluent-bit/,
  },
  { rule: 'container-image-missing', name: 'no image', mutate: (ds) => delete mainContainer(ds).image, path: `${C0}.image` },
  {
    rule: 'port-invalid',
    name: 'containerPort out of range',
    mutate: (ds) => (mainContainer(ds).ports[0].containerPort = 70000),
    path: `${C0}.ports[0].containerPort`,
    message: /70000/,
  },
  {
    rule: 'port-invalid',
    name: "name with '--'",
    mutate: (ds) => (mainContainer(ds).ports[0].name = 'http--x'),
    path: `${C0}.ports[0].name`,
    message: /http--x/,
  },
  {
    rule: 'port-invalid',
    name: 'protocol HTTP',
    mutate: (ds) => (mainContainer(ds).ports[0].protocol = 'HTTP'),
    path: `${C0}.ports[0].protocol`,
    message: /HTTP/,
  },
  {
    rule: 'port-invalid',
    name: 'same hostPort twice',
    mutate: (ds) => {
      mainContainer(ds).ports = [
        { name: 'a', containerPort: 9100, hostPort: 9100 },
        { name: 'b', containerPort: 9101, hostPort: 9100 },
      ];
    },
    path: `${C0}.ports[1].hostPort`,
    message: /9100/,
  },
  {
    rule: 'duplicate-port-name',
    name: 'two ports named http',
    mutate: (ds) => mainContainer(ds).ports.push({ name: 'http', containerPort: 2021 }),
    path: `${C0}.ports[1].name`,
    message: /http/,
  },
  {
    rule: 'unknown-field',
    name: 'a field newer than 1.28',
    mutate: (ds) => (podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' }),
    path: `${POD}.securityContext.appArmorProfile`,
    message: /exists from Kubernetes 1\.30; the target is 1\.28/,
  },
  {
    rule: 'volume-invalid',
    name: 'two sources',
    mutate: (ds) => (podOf(ds).volumes[0].emptyDir = {}),
    path: `${POD}.volumes[0]`,
    message: /hostPath, emptyDir/,
  },
  {
    // SetDefaults_Volume makes a volume without a source an emptyDir: accepted, a warning that a source may be missing
    rule: 'volume-invalid',
    name: 'no source (defaulted to emptyDir: a warning)',
    mutate: (ds) => podOf(ds).volumes.push({ name: 'empty' }),
    path: `${POD}.volumes[1]`,
    message: /no source, so the API server makes it an emptyDir/,
    severity: 'warning',
  },
  {
    // validateContainers refuses only an empty image; a blank one is accepted and can never be pulled
    rule: 'container-image-missing',
    name: 'a blank image (accepted: a warning)',
    mutate: (ds) => (mainContainer(ds).image = '  '),
    path: `${C0}.image`,
    message: /blank image ' {2}': the API server accepts it/,
    severity: 'warning',
  },
  {
    rule: 'env-var-invalid',
    name: 'a name with a space on 1.31 (relaxed names need 1.32)',
    mutate: (ds) => mainContainer(ds).env.push({ name: 'MY VAR', value: 'x' }),
    config: { kubernetesVersion: KubernetesVersion.V1_31 },
    path: `${C0}.env[1].name`,
    message: /MY VAR/,
  },
  {
    rule: 'env-var-invalid',
    name: 'a name with "=" on 1.33',
    mutate: (ds) => mainContainer(ds).env.push({ name: 'A=B', value: 'x' }),
    config: { kubernetesVersion: KubernetesVersion.V1_33 },
    path: `${C0}.env[1].name`,
    message: /other than '='/,
  },
  {
    rule: 'volume-invalid',
    name: 'name with upper case',
    mutate: (ds) => podOf(ds).volumes.push({ name: 'Tmp', emptyDir: {} }),
    path: `${POD}.volumes[1].name`,
    message: /Tmp/,
  },
  {
    rule: 'duplicate-volume-name',
    name: 'two volumes named varlog',
    mutate: (ds) => podOf(ds).volumes.push({ name: 'varlog', emptyDir: {} }),
    path: `${POD}.volumes[1].name`,
    message: /varlog/,
  },
  {
    rule: 'volume-mount-unknown-volume',
    name: 'mount of an undefined volume',
    mutate: (ds) => mainContainer(ds).volumeMounts.push({ name: 'config', mountPath: '/fluent-bit/etc' }),
    path: `${C0}.volumeMounts[1].name`,
    message: /config/,
  },
  {
    rule: 'volume-mount-invalid',
    name: 'two mounts at one path',
    mutate: (ds) => {
      podOf(ds).volumes.push({ name: 'tmp', emptyDir: {} });
      mainContainer(ds).volumeMounts.push({ name: 'tmp', mountPath: '/var/log' });
    },
    path: `${C0}.volumeMounts[1].mountPath`,
    message: /\/var\/log/,
  },
  {
    rule: 'volume-mount-invalid',
    name: "subPath with '..'",
    mutate: (ds) => (mainContainer(ds).volumeMounts[0].subPath = '../etc'),
    path: `${C0}.volumeMounts[0].subPath`,
    message: /\.\.\/etc/,
  },
  {
    rule: 'volume-mount-invalid',
    name: 'unknown propagation',
    mutate: (ds) => (mainContainer(ds).volumeMounts[0].mountPropagation = 'Shared'),
    path: `${C0}.volumeMounts[0].mountPropagation`,
    message: /Shared/,
  },
  {
    rule: 'restart-policy-not-always',
    name: 'OnFailure',
    mutate: (ds) => (podOf(ds).restartPolicy = 'OnFailure'),
    path: `${POD}.restartPolicy`,
    message: /OnFailure/,
  },
  {
    rule: 'host-path-invalid',
    name: "'..' element",
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/var/log/../../etc'),
    path: `${POD}.volumes[0].hostPath.path`,
    message: /\/var\/log\/\.\.\/\.\.\/etc/,
  },
  {
    rule: 'host-path-invalid',
    name: 'unknown type',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.type = 'Dir'),
    path: `${POD}.volumes[0].hostPath.type`,
    message: /'Dir'/,
  },
  {
    rule: 'host-network-host-port-mismatch',
    name: 'hostPort differs from containerPort',
    kind: 'monitoring-agent',
    mutate: (ds) => {
      podOf(ds).hostNetwork = true;
      mainContainer(ds).ports[0].hostPort = 8080;
    },
    path: `${C0}.ports[0].hostPort`,
    message: /8080.*2020/,
  },
  {
    rule: 'probe-invalid',
    name: 'two handlers',
    mutate: (ds) => (mainContainer(ds).readinessProbe.tcpSocket = { port: 2020 }),
    path: `${C0}.readinessProbe`,
    message: /httpGet and tcpSocket/,
  },
  {
    rule: 'probe-invalid',
    name: 'liveness successThreshold 2',
    mutate: (ds) => (mainContainer(ds).livenessProbe.successThreshold = 2),
    path: `${C0}.livenessProbe.successThreshold`,
    message: /2/,
  },
  {
    rule: 'probe-invalid',
    name: 'numeric string port',
    mutate: (ds) => (mainContainer(ds).readinessProbe.httpGet.port = '2020'),
    path: `${C0}.readinessProbe.httpGet.port`,
    message: /2020/,
  },
  {
    rule: 'probe-invalid',
    name: 'probe on an init container',
    mutate: (ds) => sidecarInit(ds, { readinessProbe: { exec: { command: ['true'] } } }),
    path: 'spec.template.spec.initContainers[0].readinessProbe',
  },
  {
    rule: 'env-var-invalid',
    name: 'name starting with a digit',
    mutate: (ds) => mainContainer(ds).env.push({ name: '1LEVEL', value: 'info' }),
    path: `${C0}.env[1].name`,
    message: /1LEVEL/,
  },
  {
    rule: 'env-var-invalid',
    name: 'value and valueFrom',
    mutate: (ds) => (mainContainer(ds).env[0].value = 'node-1'),
    path: `${C0}.env[0].valueFrom`,
    message: /NODE_NAME/,
  },
  // Host access
  {
    rule: 'host-path-not-allowed',
    name: '/etc for a log agent',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/etc'),
    path: `${POD}.volumes[0].hostPath.path`,
    message: /'\/etc'.*log-agent/,
  },
  {
    rule: 'host-path-not-allowed',
    name: '/var/logs is not below /var/log',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/var/logs'),
    path: `${POD}.volumes[0].hostPath.path`,
    message: /\/var\/logs/,
  },
  {
    rule: 'host-path-not-allowed',
    name: 'read-only entry mounted writable',
    mutate: (ds) => delete mainContainer(ds).volumeMounts[0].readOnly,
    path: `${POD}.volumes[0].hostPath.path`,
    message: /read-write/,
  },
  {
    rule: 'host-path-writable',
    name: 'mount without readOnly',
    mutate: (ds) => (mainContainer(ds).volumeMounts[0].readOnly = false),
    path: `${C0}.volumeMounts[0].readOnly`,
    message: /\/var\/log/,
  },
  {
    rule: 'sensitive-host-path-writable',
    name: '/etc writable (generic kind)',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).volumes[0].hostPath = { path: '/etc', type: 'Directory' };
      delete mainContainer(ds).volumeMounts[0].readOnly;
    },
    path: `${C0}.volumeMounts[0].readOnly`,
    message: /\/etc/,
  },
  {
    rule: 'sensitive-host-path-writable',
    name: '/var writable contains /var/lib/kubelet',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).volumes[0].hostPath = { path: '/var', type: 'Directory' };
      delete mainContainer(ds).volumeMounts[0].readOnly;
    },
    path: `${C0}.volumeMounts[0].readOnly`,
    message: /'\/var'/,
  },
  {
    rule: 'container-runtime-socket',
    name: 'containerd socket',
    kind: 'security-agent',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath = { path: '/run/containerd/containerd.sock', type: 'Socket' }),
    path: `${POD}.volumes[0].hostPath.path`,
    message: /containerd\.sock/,
    severity: 'info',
  },
  {
    rule: 'container-runtime-socket',
    name: 'a read-only mount still gives control of the node',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath = { path: '/run/containerd/containerd.sock', type: 'Socket' }),
    path: `${POD}.volumes[0].hostPath.path`,
    message: /read-only or not/,
  },
  {
    rule: 'container-runtime-socket',
    name: 'directory holding the docker socket',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath = { path: '/var/run', type: 'Directory' }),
    path: `${POD}.volumes[0].hostPath.path`,
    message: /\/var\/run/,
  },
  {
    rule: 'host-path-type-missing',
    name: 'no type on a read-only mount is advice',
    mutate: (ds) => delete podOf(ds).volumes[0].hostPath.type,
    path: `${POD}.volumes[0].hostPath.type`,
    message: /varlog.*read-only/,
    severity: 'info',
  },
  {
    rule: 'host-path-type-missing',
    name: 'no type on a writable mount',
    mutate: (ds) => {
      delete podOf(ds).volumes[0].hostPath.type;
      mainContainer(ds).volumeMounts[0].readOnly = false;
    },
    path: `${POD}.volumes[0].hostPath.type`,
    message: /varlog/,
  },
  {
    rule: 'host-path-type-missing',
    name: 'empty type',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.type = ''),
    path: `${POD}.volumes[0].hostPath.type`,
    severity: 'info',
  },
  {
    rule: 'privileged-container',
    name: 'privileged CSI driver',
    kind: 'csi-node',
    mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
    path: `${C0}.securityContext.privileged`,
    severity: 'info',
  },
  {
    rule: 'privileged-container',
    name: 'Windows HostProcess container',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).os = { name: 'windows' };
      podOf(ds).hostNetwork = true;
      mainContainer(ds).securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } };
    },
    path: `${C0}.securityContext.windowsOptions.hostProcess`,
    message: /HostProcess/,
  },
  {
    rule: 'privileged-not-allowed',
    name: 'privileged log agent',
    mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
    path: `${C0}.securityContext.privileged`,
    message: /log-agent/,
  },
  {
    rule: 'capabilities-not-dropped',
    name: 'drops nothing',
    mutate: (ds) => delete mainContainer(ds).securityContext.capabilities.drop,
    path: `${C0}.securityContext.capabilities.drop`,
    message: /none/,
  },
  {
    rule: 'capabilities-not-dropped',
    name: 'drops NET_RAW only',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.drop = ['NET_RAW']),
    path: `${C0}.securityContext.capabilities.drop`,
    message: /NET_RAW/,
  },
  {
    rule: 'dangerous-capability',
    name: 'NET_ADMIN on a generic node service',
    kind: 'node-service',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['NET_RAW', 'NET_ADMIN']),
    path: `${C0}.securityContext.capabilities.add[1]`,
    message: /NET_ADMIN/,
  },
  {
    rule: 'dangerous-capability',
    name: 'cap_sys_admin spelled in lower case',
    kind: 'node-service',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['cap_sys_admin']),
    path: `${C0}.securityContext.capabilities.add[0]`,
    message: /cap_sys_admin/,
  },
  {
    rule: 'capability-not-allowed',
    name: 'NET_ADMIN for a log agent',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['DAC_READ_SEARCH', 'NET_ADMIN']),
    path: `${C0}.securityContext.capabilities.add[1]`,
    message: /NET_ADMIN.*log-agent/,
  },
  {
    rule: 'seccomp-unconfined',
    name: 'container Unconfined',
    mutate: (ds) => (mainContainer(ds).securityContext.seccompProfile = { type: 'Unconfined' }),
    path: `${C0}.securityContext.seccompProfile.type`,
  },
  {
    rule: 'seccomp-unconfined',
    name: 'pod Unconfined',
    mutate: (ds) => (podOf(ds).securityContext.seccompProfile = { type: 'Unconfined' }),
    path: `${POD}.securityContext.seccompProfile.type`,
  },
  {
    rule: 'seccomp-profile-missing',
    name: 'no profile anywhere',
    mutate: (ds) => delete podOf(ds).securityContext,
    path: `${C0}.securityContext.seccompProfile`,
  },
  {
    rule: 'privilege-escalation-allowed',
    name: 'unset',
    mutate: (ds) => delete mainContainer(ds).securityContext.allowPrivilegeEscalation,
    path: `${C0}.securityContext.allowPrivilegeEscalation`,
    message: /undefined/,
  },
  {
    rule: 'privilege-escalation-allowed',
    name: 'true',
    mutate: (ds) => (mainContainer(ds).securityContext.allowPrivilegeEscalation = true),
    path: `${C0}.securityContext.allowPrivilegeEscalation`,
    message: /true/,
  },
  {
    rule: 'writable-root-filesystem',
    name: 'readOnlyRootFilesystem false',
    mutate: (ds) => (mainContainer(ds).securityContext.readOnlyRootFilesystem = false),
    path: `${C0}.securityContext.readOnlyRootFilesystem`,
  },
  {
    rule: 'writable-root-filesystem',
    name: 'restartable sidecar without it',
    mutate: (ds) =>
      sidecarInit(ds, { restartPolicy: 'Always', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }),
    path: 'spec.template.spec.initContainers[0].securityContext.readOnlyRootFilesystem',
  },
  {
    rule: 'host-pid-without-need',
    name: 'log agent with hostPID',
    mutate: (ds) => (podOf(ds).hostPID = true),
    path: `${POD}.hostPID`,
    message: /log-agent/,
  },
  {
    rule: 'host-ipc-without-need',
    name: 'generic service with hostIPC',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).hostIPC = true),
    path: `${POD}.hostIPC`,
  },
  {
    rule: 'host-network-without-need',
    name: 'GPU monitor on the host network',
    kind: 'gpu-monitor',
    mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }),
    path: `${POD}.hostNetwork`,
    message: /gpu-monitor/,
  },
  // Reliability
  {
    rule: 'cpu-request-missing',
    name: 'no cpu request',
    mutate: (ds) => delete mainContainer(ds).resources.requests.cpu,
    path: `${C0}.resources.requests.cpu`,
  },
  {
    rule: 'cpu-request-missing',
    name: 'zero cpu request',
    mutate: (ds) => (mainContainer(ds).resources.requests.cpu = '0'),
    path: `${C0}.resources.requests.cpu`,
  },
  {
    rule: 'memory-request-missing',
    name: 'no memory request',
    mutate: (ds) => delete mainContainer(ds).resources.requests.memory,
    path: `${C0}.resources.requests.memory`,
  },
  {
    rule: 'memory-limit-missing',
    name: 'no limits',
    mutate: (ds) => delete mainContainer(ds).resources.limits,
    path: `${C0}.resources.limits.memory`,
    severity: 'error',
  },
  {
    rule: 'memory-limit-missing',
    name: 'a CNI without a limit is advice only',
    kind: 'cni-plugin',
    mutate: (ds) => delete mainContainer(ds).resources.limits,
    path: `${C0}.resources.limits.memory`,
    severity: 'info',
  },
  {
    rule: 'memory-limit-missing',
    name: 'a generic node service without a limit is a warning',
    kind: 'node-service',
    mutate: (ds) => delete mainContainer(ds).resources.limits,
    path: `${C0}.resources.limits.memory`,
  },
  {
    rule: 'memory-limit-missing',
    name: 'restartable sidecar without a limit',
    mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always', resources: { requests: { cpu: '10m', memory: '16Mi' } } }),
    path: 'spec.template.spec.initContainers[0].resources.limits.memory',
    severity: 'error',
  },
  {
    rule: 'readiness-probe-missing',
    name: 'no readiness probe',
    mutate: (ds) => delete mainContainer(ds).readinessProbe,
    path: `${C0}.readinessProbe`,
  },
  {
    rule: 'liveness-probe-missing',
    name: 'no liveness probe',
    mutate: (ds) => delete mainContainer(ds).livenessProbe,
    path: `${C0}.livenessProbe`,
  },
  {
    rule: 'priority-class-missing',
    name: 'CNI without priority class',
    kind: 'cni-plugin',
    mutate: () => undefined,
    path: `${POD}.priorityClassName`,
    message: /cni-plugin/,
  },
  {
    rule: 'surge-with-host-ports',
    name: 'surge with a hostPort',
    mutate: (ds) => {
      ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
      mainContainer(ds).ports[0].hostPort = 2020;
    },
    path: 'spec.updateStrategy.rollingUpdate.maxSurge',
    message: /maxSurge 1 .* with host port TCP\/2020: the new pod cannot be scheduled next to the old one/,
  },
  {
    rule: 'surge-with-host-ports',
    name: 'surge on the host network',
    kind: 'monitoring-agent',
    mutate: (ds) => {
      ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: '10%' };
      Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' });
    },
    path: 'spec.updateStrategy.rollingUpdate.maxSurge',
    // the API server sets hostPort to each containerPort of a host-network pod: the rollout can only stall
    message: /with host port TCP\/\d+ and the host network: the new pod cannot be scheduled next to the old one/,
  },
  {
    rule: 'surge-with-host-ports',
    name: 'surge on the host network without declared ports',
    kind: 'monitoring-agent',
    mutate: (ds) => {
      ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 };
      Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' });
      for (const c of podOf(ds).containers) delete c.ports;
    },
    path: 'spec.updateStrategy.rollingUpdate.maxSurge',
    message: /with the host network and no declared port: the two pods may compete/,
    severity: 'warning',
  },
  {
    rule: 'selector-unstable',
    name: 'version label in the selector',
    mutate: (ds) => (ds.spec.selector.matchLabels['app.kubernetes.io/version'] = '3.0.7'),
    path: "spec.selector.matchLabels['app.kubernetes.io/version']",
  },
  {
    rule: 'selector-unstable',
    name: 'value that looks like a version',
    mutate: (ds) => {
      ds.spec.selector.matchLabels.app = 'fluent-bit-0.46.1';
      ds.spec.template.metadata.labels.app = 'fluent-bit-0.46.1';
    },
    path: 'spec.selector.matchLabels.app',
    message: /0\.46\.1/,
  },
  {
    rule: 'selector-unstable',
    name: 'cdk8s path-derived label',
    mutate: (ds) => {
      ds.spec.selector.matchLabels['cdk8s.io/metadata.addr'] = 'logs-agent-c8170884';
      ds.spec.template.metadata.labels['cdk8s.io/metadata.addr'] = 'logs-agent-c8170884';
    },
    path: "spec.selector.matchLabels['cdk8s.io/metadata.addr']",
  },
  {
    rule: 'image-not-pinned',
    name: ':latest',
    mutate: (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:latest'),
    path: `${C0}.image`,
    message: /latest/,
  },
  {
    rule: 'image-not-pinned',
    name: 'no tag',
    mutate: (ds) => (mainContainer(ds).image = 'fluent/fluent-bit'),
    path: `${C0}.image`,
    message: /no tag/,
  },
  {
    rule: 'guardrails-deny',
    name: 'image outside the registry allowlist of the guardrails beside it',
    mutate: () => undefined,
    others: guardrails(['docker.io']),
    path: `${C0}.image`,
    message: /node-services-allowlists.*cr\.fluentbit\.io/,
  },
  {
    rule: 'image-registry-not-allowed',
    name: 'registry outside the allowlist',
    config: { imageRegistries: ['registry.example.com/'] },
    mutate: () => undefined,
    path: `${C0}.image`,
    message: /cr\.fluentbit\.io/,
  },
  {
    rule: 'image-registry-not-allowed',
    name: 'look-alike registry host',
    config: { imageRegistries: ['registry.example.com'] },
    mutate: (ds) => (mainContainer(ds).image = 'registry.example.com.evil.io/fluent-bit:3.0.7'),
    path: `${C0}.image`,
  },
  {
    rule: 'on-delete-without-reason',
    name: 'OnDelete',
    mutate: (ds) => (ds.spec.updateStrategy = { type: 'OnDelete' }),
    path: 'spec.updateStrategy.type',
  },
  {
    rule: 'on-delete-without-reason',
    name: 'OnDelete with a short reason',
    mutate: (ds) => {
      ds.spec.updateStrategy = { type: 'OnDelete' };
      ds.metadata.annotations[ON_DELETE_REASON_ANNOTATION] = 'gpu';
    },
    path: 'spec.updateStrategy.type',
    message: /'gpu'/,
  },
  {
    rule: 'host-network-dns-policy',
    name: 'hostNetwork with default dnsPolicy',
    kind: 'monitoring-agent',
    mutate: (ds) => (podOf(ds).hostNetwork = true),
    path: `${POD}.dnsPolicy`,
    message: /unset/,
    severity: 'info',
  },
  {
    rule: 'host-network-dns-policy',
    name: 'a generic host-network service',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).hostNetwork = true),
    path: `${POD}.dnsPolicy`,
  },
  {
    rule: 'host-network-dns-policy',
    name: 'hostNetwork with ClusterFirst',
    kind: 'monitoring-agent',
    mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'ClusterFirst' }),
    path: `${POD}.dnsPolicy`,
    message: /ClusterFirst/,
    severity: 'info',
  },
  // Checks of item: windows, API fields, identity
  {
    rule: 'container-fields-invalid',
    name: 'imagePullPolicy in lower case',
    mutate: (ds) => (mainContainer(ds).imagePullPolicy = 'always'),
    path: `${C0}.imagePullPolicy`,
    message: /'always'/,
  },
  {
    rule: 'container-fields-invalid',
    name: 'a GPU requested without a limit',
    mutate: (ds) => (mainContainer(ds).resources.requests['nvidia.com/gpu'] = 1),
    path: `${C0}.resources.requests['nvidia.com/gpu']`,
    message: /needs a limit/,
  },
  {
    rule: 'container-fields-invalid',
    name: 'a GPU request different from its limit',
    mutate: (ds) =>
      Object.assign(mainContainer(ds).resources, {
        requests: { cpu: '1', memory: '1Gi', 'nvidia.com/gpu': 1 },
        limits: { memory: '1Gi', 'nvidia.com/gpu': 2 },
      }),
    path: `${C0}.resources.requests['nvidia.com/gpu']`,
    message: /must equal its limit/,
  },
  {
    rule: 'container-fields-invalid',
    name: 'huge pages without cpu or memory',
    mutate: (ds) => (mainContainer(ds).resources = { limits: { 'hugepages-2Mi': '64Mi' } }),
    path: `${C0}.resources.requests`,
    message: /huge pages need a cpu or memory/,
  },
  {
    rule: 'pod-fields-invalid',
    name: 'dnsPolicy None without dnsConfig',
    mutate: (ds) => (podOf(ds).dnsPolicy = 'None'),
    path: `${POD}.dnsPolicy`,
    message: /needs a dnsConfig/,
  },
  {
    rule: 'pod-fields-invalid',
    name: 'unknown dnsPolicy',
    mutate: (ds) => (podOf(ds).dnsPolicy = 'ClusterFirstWithHostNetwork'),
    path: `${POD}.dnsPolicy`,
    message: /ClusterFirstWithHostNetwork/,
  },
  {
    rule: 'pod-fields-invalid',
    name: 'priorityClassName with upper case',
    mutate: (ds) => (podOf(ds).priorityClassName = 'System-Node-Critical'),
    path: `${POD}.priorityClassName`,
    message: /System-Node-Critical/,
  },
  {
    rule: 'pod-fields-invalid',
    name: 'runtimeClassName with an underscore',
    mutate: (ds) => (podOf(ds).runtimeClassName = 'nvidia_runtime'),
    path: `${POD}.runtimeClassName`,
  },
  {
    rule: 'pod-fields-invalid',
    name: 'malformed sysctl name',
    mutate: (ds) => (podOf(ds).securityContext.sysctls = [{ name: 'net..ipv4', value: '1' }]),
    path: `${POD}.securityContext.sysctls[0].name`,
    message: /net\.\.ipv4/,
  },
  {
    rule: 'env-var-invalid',
    name: 'unsupported fieldRef path',
    mutate: (ds) => (mainContainer(ds).env[0].valueFrom.fieldRef.fieldPath = 'spec.nodename'),
    path: `${C0}.env[0].valueFrom.fieldRef.fieldPath`,
    message: /did you mean 'spec\.nodeName'/,
  },
  {
    rule: 'windows-fields-invalid',
    name: 'seccomp and capabilities on a Windows pod',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).os = { name: 'windows' }),
    path: `${POD}.securityContext.seccompProfile`,
    message: /Linux-only/,
  },
  {
    rule: 'windows-fields-invalid',
    name: 'container capabilities on a Windows pod',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).os = { name: 'windows' }),
    path: `${C0}.securityContext.capabilities`,
  },
  {
    rule: 'windows-fields-invalid',
    name: 'HostProcess without hostNetwork',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).securityContext = { windowsOptions: { hostProcess: true } };
      mainContainer(ds).securityContext = {};
    },
    path: `${POD}.hostNetwork`,
    message: /need hostNetwork: true/,
  },
  {
    rule: 'windows-fields-invalid',
    name: 'one HostProcess container and one plain',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).hostNetwork = true;
      mainContainer(ds).securityContext = { windowsOptions: { hostProcess: true } };
      podOf(ds).containers.push({ name: 'sidecar', image: 'example/sidecar:1.0' });
    },
    path: `${POD}.containers[1].securityContext.windowsOptions.hostProcess`,
    message: /all containers of a pod must be/,
  },
  {
    rule: 'run-as-non-root',
    name: 'a generic service without runAsNonRoot',
    kind: 'node-service',
    mutate: () => undefined,
    path: `${C0}.securityContext.runAsNonRoot`,
    message: /may run as root/,
  },
  {
    rule: 'run-as-non-root',
    name: 'a monitoring agent with runAsUser 0',
    kind: 'monitoring-agent',
    mutate: (ds) => (podOf(ds).securityContext.runAsUser = 0),
    path: `${C0}.securityContext.runAsNonRoot`,
    message: /runs as root/,
  },
  {
    rule: 'probe-port-undeclared',
    name: 'readiness on an undeclared port name',
    mutate: (ds) => (mainContainer(ds).readinessProbe.httpGet.port = 'metrics'),
    path: `${C0}.readinessProbe.httpGet.port`,
    message: /'metrics'.*declares 'http'/,
  },
  {
    rule: 'duplicate-env-var',
    name: 'NODE_NAME twice',
    mutate: (ds) => mainContainer(ds).env.push({ name: 'NODE_NAME', value: 'x' }),
    path: `${C0}.env[1].name`,
    message: /first at env\[0\]/,
  },
  {
    rule: 'deprecated-service-account-field',
    name: 'serviceAccount differing from serviceAccountName',
    mutate: (ds) => Object.assign(podOf(ds), { serviceAccount: 'old', serviceAccountName: 'fluent-bit' }),
    path: `${POD}.serviceAccount`,
    message: /differs/,
  },
  {
    rule: 'unsafe-sysctl',
    name: 'net.core.somaxconn',
    mutate: (ds) => (podOf(ds).securityContext.sysctls = [{ name: 'net.core.somaxconn', value: '1024' }]),
    path: `${POD}.securityContext.sysctls[0].name`,
    message: /somaxconn/,
  },
  {
    rule: 'service-account-missing',
    name: 'bound by a RoleBinding but never created',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'fluent-bit' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'fluent-bit' },
        subjects: [{ kind: 'ServiceAccount', name: 'fluent-bit', namespace: 'logging' }],
      },
    ],
    path: `${POD}.serviceAccountName`,
    message: /binds roles to it/,
  },
  {
    rule: 'service-account-missing',
    name: 'not in the input and not bound: advice',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    path: `${POD}.serviceAccountName`,
    severity: 'info',
  },
  {
    rule: 'service-account-rbac',
    name: 'wildcard verbs',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: rbacFor({ apiGroups: [''], resources: ['pods'], verbs: ['*'] }),
    path: `${POD}.serviceAccountName`,
    message: /wildcard/,
  },
  {
    rule: 'service-account-rbac',
    name: 'reading Secrets',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: rbacFor({ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }),
    path: `${POD}.serviceAccountName`,
    message: /reads Secrets/,
  },
  {
    rule: 'service-account-rbac',
    name: 'pods/exec',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: rbacFor({ apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }),
    path: `${POD}.serviceAccountName`,
    message: /pods\/exec/,
  },
  {
    rule: 'service-account-rbac',
    name: 'impersonate',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: rbacFor({ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }),
    path: `${POD}.serviceAccountName`,
    message: /impersonate/,
  },
  {
    rule: 'service-account-rbac',
    name: 'nodes/proxy',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: rbacFor({ apiGroups: [''], resources: ['nodes/proxy'], verbs: ['get'] }),
    path: `${POD}.serviceAccountName`,
    message: /nodes\/proxy/,
  },
  {
    rule: 'rolling-update-invalid',
    name: 'Kruise rollingUpdateType not Standard, Surging or InPlaceIfPossible',
    mutate: (ds) => {
      ds.apiVersion = 'apps.kruise.io/v1alpha1';
      ds.spec.updateStrategy.rollingUpdate = { rollingUpdateType: 'Fast', partition: -1 };
    },
    path: 'spec.updateStrategy.rollingUpdate.rollingUpdateType',
    message: /'Fast'/,
  },
  {
    rule: 'rolling-update-invalid',
    name: 'Kruise partition below zero',
    mutate: (ds) => {
      ds.apiVersion = 'apps.kruise.io/v1alpha1';
      ds.spec.updateStrategy.rollingUpdate = { partition: -1 };
    },
    path: 'spec.updateStrategy.rollingUpdate.partition',
  },
  // Fit
  {
    rule: 'no-node-local-need',
    name: 'a web server as a DaemonSet',
    kind: 'node-service',
    mutate: (ds) => {
      delete podOf(ds).volumes;
      delete mainContainer(ds).volumeMounts;
      delete mainContainer(ds).env;
    },
    path: 'kind',
  },
  {
    rule: 'tolerates-all-taints',
    name: 'log agent tolerating everything',
    mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists' }]),
    path: `${POD}.tolerations[0]`,
    message: /log-agent/,
  },
  {
    rule: 'tolerates-all-taints',
    name: 'every NoExecute taint (generic kind)',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists', effect: 'NoExecute' }]),
    path: `${POD}.tolerations[0]`,
    message: /NoExecute/,
  },
  {
    rule: 'default-namespace',
    name: 'namespace default',
    mutate: (ds) => (ds.metadata.namespace = 'default'),
    path: 'metadata.namespace',
    message: /'default'/,
  },
  {
    rule: 'default-namespace',
    name: 'no namespace',
    mutate: (ds) => delete ds.metadata.namespace,
    path: 'metadata.namespace',
    message: /no namespace/,
  },
  {
    rule: 'namespace-pod-security-labels',
    name: 'Namespace without labels',
    mutate: () => undefined,
    others: [namespaceObject('logging')],
    path: 'metadata.namespace',
    message: /logging/,
  },
  {
    rule: 'namespace-pod-security-labels',
    name: 'unknown enforce level',
    mutate: () => undefined,
    others: [namespaceObject('logging', { 'pod-security.kubernetes.io/enforce': 'strict' })],
    path: 'metadata.namespace',
    message: /strict/,
  },
  {
    rule: 'invalid-suppression',
    name: 'short reason',
    mutate: (ds) => (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'] = 'needed'),
    path: "metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable']",
    message: /'needed'/,
  },
  {
    rule: 'invalid-suppression',
    name: 'unknown rule id',
    mutate: (ds) =>
      (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writeable'] = 'position database for tailed files'),
    path: "metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writeable']",
    message: /host-path-writeable/,
  },
  {
    rule: 'invalid-suppression',
    name: 'API-validity rule',
    mutate: (ds) => (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/label-invalid'] = 'we know the label is odd'),
    path: "metadata.annotations['ignore-check.node-services.cdk8s.io/label-invalid']",
    message: /cannot be suppressed/,
  },
];

const compliant: Case[] = [
  // Defaulting comes before validation: empty values that the API server defaults are accepted.
  { rule: 'port-invalid', name: 'an empty protocol (defaulted to TCP)', mutate: (ds) => (mainContainer(ds).ports[0].protocol = '') },
  {
    rule: 'probe-invalid',
    name: 'an empty httpGet scheme (defaulted to HTTP)',
    mutate: (ds) => (mainContainer(ds).readinessProbe.httpGet.scheme = ''),
  },
  {
    rule: 'restart-policy-not-always',
    name: 'an empty restartPolicy (defaulted to Always)',
    mutate: (ds) => (podOf(ds).restartPolicy = ''),
  },
  {
    rule: 'container-fields-invalid',
    name: 'an empty imagePullPolicy (defaulted)',
    mutate: (ds) => (mainContainer(ds).imagePullPolicy = ''),
  },
  { rule: 'pod-fields-invalid', name: 'an empty dnsPolicy (defaulted to ClusterFirst)', mutate: (ds) => (podOf(ds).dnsPolicy = '') },
  {
    rule: 'env-var-invalid',
    name: 'a name with a space and a leading digit on 1.32 (RelaxedEnvironmentVariableValidation)',
    mutate: (ds) => mainContainer(ds).env.push({ name: '1 MY-VAR', value: 'x' }),
    config: { kubernetesVersion: KubernetesVersion.V1_32 },
  },
  {
    rule: 'field-type-invalid',
    name: 'an octal mode, a percentage, a number as quantity, null as unset',
    mutate: (ds) => {
      podOf(ds).volumes.push({ name: 'conf', configMap: { name: 'conf', defaultMode: 0o644 } });
      ds.spec.updateStrategy.rollingUpdate.maxUnavailable = '10%';
      mainContainer(ds).resources.requests.cpu = 0.1;
      podOf(ds).nodeSelector = null;
    },
  },
  {
    rule: 'unknown-field',
    name: 'a field newer than 1.28 with target 1.30',
    mutate: (ds) => (podOf(ds).securityContext.appArmorProfile = { type: 'RuntimeDefault' }),
    config: { kubernetesVersion: KubernetesVersion.V1_30 },
  },
  {
    rule: 'rolling-update-invalid',
    name: 'an empty type defaults to RollingUpdate before validation',
    mutate: (ds) => (ds.spec.updateStrategy.type = ''),
  },
  {
    rule: 'rolling-update-invalid',
    name: 'a Kruise Advanced DaemonSet with partition, selector and surge next to unavailability',
    mutate: (ds) => {
      ds.apiVersion = 'apps.kruise.io/v1alpha1';
      ds.spec.updateStrategy.rollingUpdate = {
        rollingUpdateType: 'Surging',
        partition: 5,
        maxSurge: 1,
        maxUnavailable: 1,
        paused: false,
        selector: { matchLabels: { canary: 'true' } },
      };
    },
  },
  { rule: 'daemonset-api-version', name: 'an OpenKruise Advanced DaemonSet', mutate: (ds) => (ds.apiVersion = 'apps.kruise.io/v1alpha1') },
  {
    rule: 'container-fields-invalid',
    name: 'IfNotPresent and a GPU limit alone',
    mutate: (ds) =>
      Object.assign(mainContainer(ds), {
        imagePullPolicy: 'IfNotPresent',
        resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '1Gi', 'nvidia.com/gpu': 1 } },
      }),
  },
  {
    rule: 'pod-fields-invalid',
    name: 'dnsPolicy None with a nameserver',
    mutate: (ds) =>
      Object.assign(podOf(ds), {
        dnsPolicy: 'None',
        dnsConfig: { nameservers: ['169.254.20.10'] },
        priorityClassName: 'system-node-critical',
      }),
  },
  { rule: 'windows-fields-invalid', name: 'a Linux pod may set Linux fields', mutate: () => undefined },
  {
    rule: 'windows-fields-invalid',
    name: 'a HostProcess pod on the host network without Linux fields',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).os = { name: 'windows' };
      podOf(ds).hostNetwork = true;
      podOf(ds).securityContext = { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } };
      mainContainer(ds).securityContext = {};
    },
  },
  {
    rule: 'run-as-non-root',
    name: 'a log agent reads root-owned logs as root by design',
    mutate: (ds) => (podOf(ds).securityContext.runAsUser = 0),
  },
  {
    rule: 'writable-root-filesystem',
    name: 'a plain init container runs to completion first',
    mutate: (ds) => sidecarInit(ds, { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }),
  },
  {
    rule: 'run-as-non-root',
    name: 'runAsUser 65534 on the pod',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).securityContext.runAsUser = 65534),
  },
  {
    rule: 'run-as-non-root',
    name: 'privileged containers are covered by the privileged finding',
    kind: 'node-service',
    mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
  },
  {
    rule: 'probe-port-undeclared',
    name: 'a declared name and a number',
    mutate: (ds) => (mainContainer(ds).livenessProbe.httpGet.port = 2020),
  },
  { rule: 'duplicate-env-var', name: 'distinct names', mutate: (ds) => mainContainer(ds).env.push({ name: 'LOG_LEVEL', value: 'info' }) },
  {
    rule: 'deprecated-service-account-field',
    name: 'serviceAccountName only',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
  },
  {
    rule: 'unsafe-sysctl',
    name: 'a safe sysctl',
    mutate: (ds) => (podOf(ds).securityContext.sysctls = [{ name: 'net.ipv4.ip_local_port_range', value: '32768 60999' }]),
  },
  { rule: 'service-account-missing', name: 'the default ServiceAccount', mutate: () => undefined },
  {
    rule: 'service-account-missing',
    name: 'shipped with the DaemonSet',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fluent-bit', namespace: 'logging' } }],
  },
  {
    rule: 'service-account-rbac',
    name: 'get/list/watch on pods and namespaces',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'fluent-bit'),
    others: rbacFor({ apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['get', 'list', 'watch'] }),
  },
  {
    rule: 'service-account-rbac',
    name: 'a role bound to another ServiceAccount',
    mutate: (ds) => (podOf(ds).serviceAccountName = 'other'),
    others: rbacFor({ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }),
  },
  { rule: 'daemonset-api-version', name: 'apps/v1', mutate: () => undefined },
  {
    rule: 'daemonset-spec-invalid',
    name: 'counters set to valid values',
    mutate: (ds) => Object.assign(ds.spec, { minReadySeconds: 10, revisionHistoryLimit: 0 }),
  },
  {
    rule: 'selector-invalid',
    name: 'matchExpressions Exists',
    mutate: (ds) => (ds.spec.selector.matchExpressions = [{ key: 'app.kubernetes.io/name', operator: 'Exists' }]),
  },
  {
    rule: 'selector-template-mismatch',
    name: 'NotIn satisfied',
    mutate: (ds) => (ds.spec.selector.matchExpressions = [{ key: 'tier', operator: 'NotIn', values: ['web'] }]),
  },
  {
    rule: 'rolling-update-invalid',
    name: 'surge with explicit maxUnavailable 0',
    mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 }),
  },
  {
    rule: 'rolling-update-invalid',
    name: 'percentage',
    mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: '10%' }),
  },
  { rule: 'rolling-update-invalid', name: 'no strategy (defaults)', mutate: (ds) => delete ds.spec.updateStrategy },
  {
    rule: 'rolling-update-invalid',
    name: 'OnDelete ignores rollingUpdate',
    mutate: (ds) => (ds.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxSurge: 5 } }),
  },
  {
    rule: 'privileged-escalation-conflict',
    name: 'privileged with APE true',
    kind: 'csi-node',
    mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
  },
  {
    rule: 'sys-admin-escalation-conflict',
    name: 'SYS_ADMIN without the prefix',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['SYS_ADMIN']),
  },
  {
    rule: 'bidirectional-propagation-unprivileged',
    name: 'Bidirectional in a privileged container',
    kind: 'csi-node',
    mutate: (ds) => {
      Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true });
      mainContainer(ds).volumeMounts[0].mountPropagation = 'Bidirectional';
    },
  },
  {
    rule: 'bidirectional-propagation-unprivileged',
    name: 'HostToContainer',
    mutate: (ds) => (mainContainer(ds).volumeMounts[0].mountPropagation = 'HostToContainer'),
  },
  {
    rule: 'toleration-invalid',
    name: 'Equal with NoExecute seconds',
    mutate: (ds) =>
      podOf(ds).tolerations.push({ key: 'maintenance', operator: 'Equal', value: 'true', effect: 'NoExecute', tolerationSeconds: 30 }),
  },
  {
    rule: 'toleration-invalid',
    name: 'tolerate everything',
    kind: 'cni-plugin',
    mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists' }]),
  },
  {
    rule: 'node-selector-invalid',
    name: 'nodeSelector and Gt',
    mutate: (ds) =>
      Object.assign(podOf(ds), {
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'example.com/gpus', operator: 'Gt', values: ['0'] }] }],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 100, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] } },
            ],
          },
        },
      }),
  },
  { rule: 'object-name-invalid', name: 'dotted name', mutate: (ds) => (ds.metadata.name = 'fluent-bit.logs') },
  { rule: 'label-invalid', name: 'prefixed keys and empty value', mutate: (ds) => (ds.metadata.labels['example.com/team'] = '') },
  {
    rule: 'annotation-invalid',
    name: 'upper-case key (checked in lower case)',
    mutate: (ds) => (ds.metadata.annotations['example.com/Owner'] = 'platform'),
  },
  {
    rule: 'quantity-invalid',
    name: 'decimal and exponent quantities',
    mutate: (ds) => Object.assign(mainContainer(ds).resources.requests, { cpu: '0.1', memory: '1.28e8' }),
  },
  { rule: 'requests-exceed-limits', name: 'request equals limit', mutate: (ds) => (mainContainer(ds).resources.requests.memory = '256Mi') },
  {
    rule: 'requests-exceed-limits',
    name: 'units differ',
    mutate: (ds) =>
      Object.assign(mainContainer(ds).resources, { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '0.5', memory: '1Gi' } }),
  },
  { rule: 'container-name-invalid', name: 'DNS label', mutate: (ds) => (mainContainer(ds).name = 'fluent-bit-2') },
  { rule: 'duplicate-container-name', name: 'distinct init name', mutate: (ds) => sidecarInit(ds) },
  {
    rule: 'container-image-missing',
    name: 'digest image',
    mutate: (ds) => (mainContainer(ds).image = `fluent/fluent-bit@sha256:${'a'.repeat(64)}`),
  },
  {
    rule: 'port-invalid',
    name: 'hostPort and UDP',
    mutate: (ds) => mainContainer(ds).ports.push({ name: 'syslog', containerPort: 5140, hostPort: 514, protocol: 'UDP' }),
  },
  {
    rule: 'port-invalid',
    name: 'an init container may reuse a main container hostPort',
    mutate: (ds) => {
      mainContainer(ds).ports[0].hostPort = 2020;
      sidecarInit(ds, { ports: [{ name: 'setup', containerPort: 2020, hostPort: 2020 }] });
    },
  },
  {
    rule: 'duplicate-port-name',
    name: 'distinct names',
    mutate: (ds) => mainContainer(ds).ports.push({ name: 'metrics', containerPort: 2021 }),
  },
  {
    rule: 'volume-invalid',
    name: 'configMap volume',
    mutate: (ds) => podOf(ds).volumes.push({ name: 'config', configMap: { name: 'fluent-bit' } }),
  },
  { rule: 'duplicate-volume-name', name: 'distinct names', mutate: (ds) => podOf(ds).volumes.push({ name: 'tmp', emptyDir: {} }) },
  {
    rule: 'volume-mount-unknown-volume',
    name: 'mount of a defined volume',
    mutate: (ds) => {
      podOf(ds).volumes.push({ name: 'config', configMap: { name: 'fluent-bit' } });
      mainContainer(ds).volumeMounts.push({ name: 'config', mountPath: '/fluent-bit/etc', readOnly: true });
    },
  },
  { rule: 'volume-mount-invalid', name: 'relative subPath', mutate: (ds) => (mainContainer(ds).volumeMounts[0].subPath = 'pods') },
  { rule: 'restart-policy-not-always', name: 'Always', mutate: (ds) => (podOf(ds).restartPolicy = 'Always') },
  {
    rule: 'host-path-invalid',
    name: 'relative path (accepted by the API)',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = 'var/log'),
  },
  {
    rule: 'host-network-host-port-mismatch',
    name: 'hostPort equals containerPort',
    kind: 'monitoring-agent',
    mutate: (ds) => {
      podOf(ds).hostNetwork = true;
      mainContainer(ds).ports[0].hostPort = 2020;
    },
  },
  {
    rule: 'probe-invalid',
    name: 'probe on a restartable sidecar',
    mutate: (ds) => sidecarInit(ds, { restartPolicy: 'Always', readinessProbe: { grpc: { port: 9090 } } }),
  },
  {
    rule: 'env-var-invalid',
    name: 'dotted name and a literal value',
    mutate: (ds) => mainContainer(ds).env.push({ name: 'fluent.log_level', value: 'info' }),
  },
  {
    rule: 'host-path-not-allowed',
    name: 'below an allowed directory',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/var/log/pods'),
  },
  {
    rule: 'host-path-not-allowed',
    name: 'generic kind has no allowlist',
    kind: 'node-service',
    mutate: (ds) => (podOf(ds).volumes[0].hostPath.path = '/etc'),
  },
  {
    rule: 'host-path-not-allowed',
    name: 'no kind annotation means the generic profile',
    mutate: (ds) => {
      delete ds.metadata.annotations[KIND_ANNOTATION];
      podOf(ds).volumes[0].hostPath.path = '/etc';
    },
  },
  { rule: 'host-path-writable', name: 'readOnly mount', mutate: () => undefined },
  {
    rule: 'sensitive-host-path-writable',
    name: 'CSI writes /var/lib/kubelet (allowlisted read-write)',
    kind: 'csi-node',
    mutate: (ds) => {
      podOf(ds).volumes[0].hostPath = { path: '/var/lib/kubelet', type: 'Directory' };
      delete mainContainer(ds).volumeMounts[0].readOnly;
    },
  },
  {
    rule: 'sensitive-host-path-writable',
    name: 'below a sensitive directory',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).volumes[0].hostPath = { path: '/etc/cni/net.d', type: 'DirectoryOrCreate' };
      delete mainContainer(ds).volumeMounts[0].readOnly;
    },
  },
  { rule: 'container-runtime-socket', name: 'log directories only', mutate: () => undefined },
  {
    rule: 'container-runtime-socket',
    name: 'mounted only by a privileged container (the privileged finding covers it)',
    kind: 'node-service',
    mutate: (ds) => {
      podOf(ds).volumes[0].hostPath = { path: '/run/containerd/containerd.sock', type: 'Socket' };
      Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true });
    },
  },
  {
    rule: 'dangerous-capability',
    name: 'NET_ADMIN on a CNI, whose job needs it',
    kind: 'cni-plugin',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['NET_RAW', 'NET_ADMIN']),
  },
  {
    rule: 'host-network-dns-policy',
    name: 'a CNI on the host network resolves through the node either way',
    kind: 'cni-plugin',
    mutate: (ds) => (podOf(ds).hostNetwork = true),
  },
  {
    rule: 'memory-limit-missing',
    name: 'the configuration overrides the kind severity',
    kind: 'cni-plugin',
    config: { rules: { 'memory-limit-missing': 'off' as any } },
    mutate: (ds) => delete mainContainer(ds).resources.limits,
  },
  { rule: 'host-path-type-missing', name: 'type set', mutate: () => undefined },
  { rule: 'privileged-container', name: 'unprivileged', mutate: (ds) => (mainContainer(ds).securityContext.privileged = false) },
  {
    rule: 'privileged-not-allowed',
    name: 'privileged CSI driver',
    kind: 'csi-node',
    mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
  },
  {
    rule: 'capabilities-not-dropped',
    name: "drop 'all' in lower case",
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.drop = ['all']),
  },
  {
    rule: 'capabilities-not-dropped',
    name: 'privileged containers are skipped',
    kind: 'csi-node',
    mutate: (ds) => (mainContainer(ds).securityContext = { privileged: true, allowPrivilegeEscalation: true }),
  },
  {
    rule: 'dangerous-capability',
    name: 'SYS_TIME',
    kind: 'monitoring-agent',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['SYS_TIME']),
  },
  {
    rule: 'capability-not-allowed',
    name: 'CAP_ prefix of an allowed capability',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['CAP_DAC_READ_SEARCH']),
  },
  {
    rule: 'capability-not-allowed',
    name: 'generic kind has no allowlist',
    kind: 'node-service',
    mutate: (ds) => (mainContainer(ds).securityContext.capabilities.add = ['NET_ADMIN']),
  },
  {
    rule: 'seccomp-unconfined',
    name: 'Localhost profile',
    mutate: (ds) => (mainContainer(ds).securityContext.seccompProfile = { type: 'Localhost', localhostProfile: 'profiles/agent.json' }),
  },
  {
    rule: 'seccomp-profile-missing',
    name: 'container-level profile',
    mutate: (ds) => {
      delete podOf(ds).securityContext;
      mainContainer(ds).securityContext.seccompProfile = { type: 'RuntimeDefault' };
    },
  },
  { rule: 'privilege-escalation-allowed', name: 'explicit false', mutate: () => undefined },
  {
    rule: 'privilege-escalation-allowed',
    name: 'privileged containers are skipped',
    kind: 'csi-node',
    mutate: (ds) => Object.assign(mainContainer(ds).securityContext, { privileged: true, allowPrivilegeEscalation: true }),
  },
  { rule: 'writable-root-filesystem', name: 'read-only root', mutate: () => undefined },
  {
    rule: 'host-pid-without-need',
    name: 'node exporter with hostPID',
    kind: 'monitoring-agent',
    mutate: (ds) => (podOf(ds).hostPID = true),
  },
  { rule: 'host-ipc-without-need', name: 'hostIPC false', mutate: (ds) => (podOf(ds).hostIPC = false) },
  {
    rule: 'host-network-without-need',
    name: 'CNI on the host network',
    kind: 'cni-plugin',
    mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' }),
  },
  { rule: 'cpu-request-missing', name: 'request set', mutate: () => undefined },
  { rule: 'memory-request-missing', name: 'request set', mutate: () => undefined },
  { rule: 'memory-limit-missing', name: 'plain init containers need no limit', mutate: (ds) => sidecarInit(ds) },
  { rule: 'readiness-probe-missing', name: 'probe set', mutate: () => undefined },
  { rule: 'liveness-probe-missing', name: 'probe set', mutate: () => undefined },
  {
    rule: 'priority-class-missing',
    name: 'CNI with system-node-critical',
    kind: 'cni-plugin',
    mutate: (ds) => (podOf(ds).priorityClassName = 'system-node-critical'),
  },
  { rule: 'priority-class-missing', name: 'log agents are not node-critical', mutate: () => undefined },
  {
    rule: 'surge-with-host-ports',
    name: 'surge without host ports',
    mutate: (ds) => (ds.spec.updateStrategy.rollingUpdate = { maxUnavailable: 0, maxSurge: 1 }),
  },
  {
    rule: 'surge-with-host-ports',
    name: 'hostPort with maxUnavailable',
    mutate: (ds) => (mainContainer(ds).ports[0].hostPort = 2020),
  },
  { rule: 'selector-unstable', name: 'name and instance only', mutate: () => undefined },
  {
    rule: 'image-not-pinned',
    name: 'digest only',
    mutate: (ds) => (mainContainer(ds).image = `fluent/fluent-bit@sha256:${'b'.repeat(64)}`),
  },
  {
    rule: 'image-not-pinned',
    name: 'registry with a port and a tag',
    mutate: (ds) => (mainContainer(ds).image = 'registry.local:5000/fluent-bit:3.0.7'),
  },
  { rule: 'image-registry-not-allowed', name: 'no allowlist configured', mutate: () => undefined },
  {
    rule: 'guardrails-deny',
    name: 'admitted by the guardrails beside it',
    mutate: () => undefined,
    others: guardrails(['cr.fluentbit.io/fluent']),
  },
  {
    rule: 'image-registry-not-allowed',
    name: 'allowed registry (prefix without a slash)',
    config: { imageRegistries: ['registry.example.com'] },
    mutate: (ds) => (mainContainer(ds).image = 'registry.example.com/fluent/fluent-bit:3.0.7'),
  },
  {
    rule: 'image-registry-not-allowed',
    name: 'Docker Hub image allowed as docker.io/',
    config: { imageRegistries: ['docker.io/fluent/'] },
    mutate: (ds) => (mainContainer(ds).image = 'fluent/fluent-bit:3.0.7'),
  },
  {
    rule: 'on-delete-without-reason',
    name: 'OnDelete with a reason annotation',
    mutate: (ds) => {
      ds.spec.updateStrategy = { type: 'OnDelete' };
      ds.metadata.annotations[ON_DELETE_REASON_ANNOTATION] = 'pods are replaced during node maintenance';
    },
  },
  {
    rule: 'host-network-dns-policy',
    name: 'ClusterFirstWithHostNet',
    kind: 'monitoring-agent',
    mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' }),
  },
  {
    rule: 'host-network-dns-policy',
    name: 'Default for a CNI',
    kind: 'cni-plugin',
    mutate: (ds) => Object.assign(podOf(ds), { hostNetwork: true, dnsPolicy: 'Default' }),
  },
  { rule: 'no-node-local-need', name: 'hostPath', mutate: () => undefined },
  {
    rule: 'no-node-local-need',
    name: 'only the node name from the downward API',
    kind: 'node-service',
    mutate: (ds) => {
      delete podOf(ds).volumes;
      delete mainContainer(ds).volumeMounts;
    },
  },
  {
    rule: 'tolerates-all-taints',
    name: 'node infrastructure may tolerate everything',
    kind: 'csi-node',
    mutate: (ds) => (podOf(ds).tolerations = [{ operator: 'Exists' }]),
  },
  { rule: 'tolerates-all-taints', name: 'keyed Exists toleration', mutate: () => undefined },
  { rule: 'default-namespace', name: 'platform namespace', mutate: () => undefined },
  {
    rule: 'namespace-pod-security-labels',
    name: 'labelled Namespace',
    mutate: () => undefined,
    others: [
      namespaceObject('logging', {
        'pod-security.kubernetes.io/enforce': 'privileged',
        'pod-security.kubernetes.io/enforce-version': 'v1.28',
      }),
    ],
  },
  {
    rule: 'namespace-pod-security-labels',
    name: 'Namespace not in the checked set',
    mutate: () => undefined,
    others: [namespaceObject('monitoring')],
  },
  {
    rule: 'invalid-suppression',
    name: 'reasoned suppression of a warning',
    mutate: (ds) =>
      (ds.metadata.annotations['ignore-check.node-services.cdk8s.io/host-path-writable'] = 'position database for tailed log files'),
  },
];

function run(c: Case) {
  const ds = compliantDaemonSet(c.kind);
  c.mutate(ds);
  const report = checkManifests([ds, ...(c.others ?? [])], c.config);
  return report.findings.filter((f) => f.ruleId === c.rule);
}

describe('the compliant DaemonSet used by every case', () => {
  test('has no findings at all', () => {
    // GIVEN the compliant log agent WHEN it is checked
    const report = checkManifests([compliantDaemonSet()]);
    // THEN nothing is reported
    expect(report.findings).toEqual([]);
    expect(report.checkedObjects).toBe(1);
  });
});

describe.each(nonCompliant.map((c) => [c.rule, c.name, c] as const))('%s: non-compliant (%s)', (_rule, _name, c) => {
  test('is reported at the offending field', () => {
    // GIVEN a DaemonSet broken in one way WHEN it is checked
    const findings = run(c);
    // THEN the rule reports the field, naming the bad value
    const atPath = findings.filter((f) => f.path === c.path);
    expect(atPath.map((f) => f.path)).toContain(c.path);
    if (c.message) expect(atPath.map((f) => f.message).join('\n')).toMatch(c.message);
    const rule = RULES.find((r) => r.id === c.rule)!;
    expect(atPath[0].severity).toBe(c.severity ?? rule.severity);
    expect(atPath[0].fix).toBe(rule.fix);
  });
});

describe.each(compliant.map((c) => [c.rule, c.name, c] as const))('%s: compliant (%s)', (_rule, _name, c) => {
  test('is not reported', () => {
    // GIVEN a DaemonSet that satisfies the rule WHEN it is checked THEN the rule reports nothing
    expect(run(c)).toEqual([]);
  });
});

describe('the catalogue', () => {
  test('has at least 35 rules with unique kebab-case ids and complete documentation', () => {
    const ids = RULES.map((r) => r.id);
    expect(RULES.length).toBeGreaterThanOrEqual(35);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      for (const text of [r.title, r.rationale, r.fix, r.example]) expect(text.trim().length).toBeGreaterThan(0);
    }
  });

  test('every rule has a non-compliant and a compliant case', () => {
    const ids = RULES.map((r) => r.id).sort();
    expect([...new Set(nonCompliant.map((c) => c.rule))].sort()).toEqual(ids);
    expect([...new Set(compliant.map((c) => c.rule))].sort()).toEqual(ids);
  });

  test('keeps the ids the construct library relies on, with their severities', () => {
    const expected: Array<[string, string, boolean]> = [
      ['host-path-writable', 'warning', true],
      ['privileged-container', 'warning', true],
      ['on-delete-without-reason', 'warning', true],
      ['dangerous-capability', 'warning', true],
      ['default-namespace', 'warning', true],
      ['no-node-local-need', 'warning', true],
      ['host-path-not-allowed', 'error', true],
      ['capability-not-allowed', 'error', true],
    ];
    for (const [id, severity, suppressible] of expected) {
      const rule = RULES.find((r) => r.id === id);
      expect({ id, severity: rule?.severity, suppressible: rule?.suppressible }).toEqual({ id, severity, suppressible });
    }
  });

  test('API-validity rules are errors that cannot be suppressed or configured', () => {
    const api = RULES.filter((r) => r.category === 'api-validity');
    expect(api.length).toBeGreaterThan(0);
    for (const r of api)
      expect({ id: r.id, severity: r.severity, suppressible: r.suppressible, configurable: r.configurable }).toEqual({
        id: r.id,
        severity: 'error',
        suppressible: false,
        configurable: false,
      });
  });

  test('each rule file is named after its rule id', () => {
    const fs = require('fs') as typeof import('fs');
    const path = require('path') as typeof import('path');
    const files = fs
      .readdirSync(path.join(__dirname, '../../src/policy/rules'))
      .filter((f: string) => f !== 'index.ts')
      .map((f: string) => f.replace(/\.ts$/, ''))
      .sort();
    expect(files).toEqual(RULES.map((r) => r.id).sort());
  });
});
