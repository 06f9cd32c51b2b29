/**
 * Test support: a DaemonSet that complies with every rule of the catalogue, to be mutated by each test case.
 */

import { KIND_ANNOTATION } from '../../src/policy/kinds';

/** A log-agent DaemonSet (Fluent Bit) that no rule finds fault with. */
export function compliantDaemonSet(kind = 'log-agent'): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: 'fluent-bit',
      namespace: 'logging',
      labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/instance': 'logs', 'app.kubernetes.io/version': '3.0.7' },
      annotations: { [KIND_ANNOTATION]: kind },
    },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/instance': 'logs' } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: {
          labels: { 'app.kubernetes.io/name': 'fluent-bit', 'app.kubernetes.io/instance': 'logs', 'app.kubernetes.io/version': '3.0.7' },
        },
        spec: {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [
            {
              name: 'fluent-bit',
              image: 'cr.fluentbit.io/fluent/fluent-bit:3.0.7',
              env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
              ports: [{ name: 'http', containerPort: 2020, protocol: 'TCP' }],
              readinessProbe: { httpGet: { path: '/api/v1/health', port: 'http' } },
              livenessProbe: { httpGet: { path: '/', port: 'http' } },
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'], add: ['DAC_READ_SEARCH'] },
              },
              volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }],
            },
          ],
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } }],
        },
      },
    },
  };
}

/** The pod spec of a DaemonSet. */
export function podOf(ds: any): any {
  return ds.spec.template.spec;
}

/** The first container of a DaemonSet. */
export function mainContainer(ds: any): any {
  return ds.spec.template.spec.containers[0];
}

/** A Namespace object. */
export function namespaceObject(name: string, labels?: { [key: string]: string }): any {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(labels ? { labels } : {}) } };
}
