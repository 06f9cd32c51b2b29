export {
  NodeServiceAlerts,
  NodeServiceAlertsProps,
  NodeServiceAlertTarget,
  NodeServiceMetricsEndpoint,
  AlertRuleLayout,
} from './coverage-alerts';
export { AlertSeverity, NodeServiceAlert, DEFAULT_KUBE_STATE_METRICS_SELECTOR } from './alert-rules';
