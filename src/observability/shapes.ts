/**
 * Runtime shape of the alert constructs' props, checked at the start of their constructors with the shared boundary
 * checker. Built on first use: the enum it names is defined in the module that uses it.
 */

import { bool, list, map, object, oneOf, opt, req, ShapeTable, str } from '../k8s/shape';
import { AlertRuleLayout } from './resolve-alerts';

let alertsShape: ShapeTable | undefined;

/** Shape of `NodeServiceAlertsProps`. @internal */
export function alertsPropsShape(): ShapeTable {
  alertsShape ??= {
    services: req(
      list(
        object('NodeServiceAlertTarget', {
          name: req(str),
          namespace: req(str),
          kind: req(str),
          team: opt(str),
          critical: opt(bool),
          selector: opt(map(str)),
          podSelector: opt(map(str)),
          daemonSetNames: opt(list(str)),
          metrics: opt(object('NodeServiceMetricsEndpoint', { port: req(str), path: opt(str), interval: opt(str) })),
        }),
      ),
    ),
    layout: opt(oneOf('AlertRuleLayout', Object.values(AlertRuleLayout))),
    kubeStateMetricsSelector: opt(str),
    team: opt(str),
    ruleNamespace: opt(str),
    ruleLabels: opt(map(str)),
    runbookBaseUrl: opt(str),
    partOf: opt(str),
  };
  return alertsShape;
}
