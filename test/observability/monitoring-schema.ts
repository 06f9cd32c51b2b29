/**
 * Structural validators for the Prometheus Operator objects the library emits (`monitoring.coreos.com/v1`
 * PrometheusRule and PodMonitor), after the operator's CRD schemas: required fields, types, duration patterns, and
 * the operator's own rule checks (exactly one of alert/record, label names, unique group names).
 */

import { labels, arr, map, metadata, obj, oneOf, opt, req, str, validate, int, bool } from '../guardrails/schema-dsl';

const DURATION = /^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

const rule = obj(
  {
    alert: opt(str({ minLength: 1 })),
    record: opt(str({ pattern: METRIC_NAME })),
    expr: req(str({ minLength: 1 })),
    for: opt(str({ pattern: DURATION })),
    keep_firing_for: opt(str({ pattern: DURATION, minLength: 1 })),
    labels: opt(map(str(), (k) => (LABEL_NAME.test(k) ? undefined : 'is not a Prometheus label name'))),
    annotations: opt(map(str(), (k) => (LABEL_NAME.test(k) ? undefined : 'is not a Prometheus label name'))),
  },
  (r, path, errors) => {
    if ((r.alert === undefined) === (r.record === undefined)) errors.push(`${path}: exactly one of alert and record`);
    if (r.record !== undefined && (r.for !== undefined || r.annotations !== undefined))
      errors.push(`${path}: for and annotations are only valid on alerting rules`);
  },
);

const group = obj({
  name: req(str({ minLength: 1 })),
  interval: opt(str({ pattern: DURATION })),
  query_offset: opt(str({ pattern: DURATION })),
  limit: opt(int({ min: 0 })),
  labels: opt(map(str())),
  partial_response_strategy: opt(str({ pattern: /^(abort|warn)?$/i })),
  rules: opt(arr(rule)),
});

/** Errors of a PrometheusRule manifest (empty when valid). */
export function validatePrometheusRule(manifest: unknown): string[] {
  return validate(
    obj({
      apiVersion: req(oneOf('monitoring.coreos.com/v1')),
      kind: req(oneOf('PrometheusRule')),
      metadata: req(metadata(true)),
      spec: req(obj({ groups: opt(arr(group, { uniqueBy: (g) => g.name })) })),
    }),
    manifest,
  );
}

const podMetricsEndpoint = obj({
  port: opt(str({ minLength: 1 })),
  portNumber: opt(int({ min: 1, max: 65535 })),
  path: opt(str({ pattern: /^\// })),
  scheme: opt(oneOf('http', 'https', 'HTTP', 'HTTPS')),
  interval: opt(str({ pattern: DURATION })),
  scrapeTimeout: opt(str({ pattern: DURATION })),
  honorLabels: opt(bool),
});

/** Errors of a PodMonitor manifest (empty when valid). */
export function validatePodMonitor(manifest: unknown): string[] {
  return validate(
    obj({
      apiVersion: req(oneOf('monitoring.coreos.com/v1')),
      kind: req(oneOf('PodMonitor')),
      metadata: req(metadata(true)),
      spec: req(
        obj({
          selector: req(
            obj({
              matchLabels: opt(labels),
              matchExpressions: opt(arr(obj({ key: req(str()), operator: req(str()), values: opt(arr(str())) }))),
            }),
          ),
          namespaceSelector: opt(obj({ any: opt(bool), matchNames: opt(arr(str())) })),
          podMetricsEndpoints: opt(arr(podMetricsEndpoint)),
          jobLabel: opt(str()),
        }),
      ),
    }),
    manifest,
  );
}
