/**
 * The alerts and monitors checked against the App they belong to, at synth: the alert expressions of a service must
 * select every DaemonSet the App runs for it (stable, canary, variants: the DaemonSets that carry its service label),
 * and its PodMonitor must select the pods of each of them and find the metrics port there. A DaemonSet left out is
 * never paged for (its missing pods count nowhere) or never scraped: an error naming the service, the DaemonSet and
 * the fix. A listed DaemonSet the App does not define is a warning (it selects nothing). Services whose DaemonSets
 * the App does not define are not judged.
 */

import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { SERVICE_LABEL } from '../core/labels';
import { NodeServiceChecks } from '../policy/synth';

/** What the check needs of one alert target. @internal */
export interface MonitoredService {
  /** How the target was written (`services[0]`). */
  readonly field: string;
  readonly name: string;
  readonly namespace: string;
  /** The DaemonSets the alert expressions select. */
  readonly daemonSets: readonly string[];
  /** The PodMonitor's selector and port, when it has one. */
  readonly podMonitor?: { readonly selector: { readonly [key: string]: string }; readonly port: string };
}

const RESULTS = new WeakMap<IConstruct, { readonly synthesis: object; readonly errors: string[] }>();

/** The App's DaemonSets by `namespace/name`. */
function daemonSetsOf(root: IConstruct): Map<string, ApiObject> {
  const out = new Map<string, ApiObject>();
  for (const c of root.node.findAll()) {
    if (ApiObject.isApiObject(c) && c.kind === 'DaemonSet') out.set(`${c.metadata.namespace ?? 'default'}/${c.name}`, c);
  }
  return out;
}

/** The problems of one target: errors, and warnings handed to `warn`. */
function targetProblems(s: MonitoredService, all: Map<string, ApiObject>, warn: (text: string) => void): string[] {
  const listed = s.daemonSets.map((n) => all.get(`${s.namespace}/${n}`));
  const defined = listed.filter((d): d is ApiObject => d !== undefined);
  if (defined.length === 0) return [];
  const services = new Set(defined.map((d) => d.metadata.getLabel(SERVICE_LABEL)).filter((v): v is string => v !== undefined));
  const ofService = [...all.values()].filter(
    (d) => (d.metadata.namespace ?? 'default') === s.namespace && services.has(d.metadata.getLabel(SERVICE_LABEL) ?? '\u0000'),
  );
  const errors: string[] = [];
  const subject = `${s.field} (${s.namespace}/${s.name})`;
  const missing = ofService.filter((d) => !s.daemonSets.includes(d.name)).map((d) => d.name);
  if (missing.length > 0) {
    errors.push(
      `alerts-miss-daemonset: ${subject} alerts on DaemonSet ${s.daemonSets.join(', ')} but the App also runs ${missing.join(', ')} for the service: its missing pods never page. ` +
        `Fix: pass the NodeService itself as the target (it carries daemonSetNames), or set daemonSetNames: [${[...s.daemonSets, ...missing].map((n) => `'${n}'`).join(', ')}]`,
    );
  }
  const stale = s.daemonSets.filter((_n, i) => listed[i] === undefined);
  if (stale.length > 0)
    warn(
      `alerts-unknown-daemonset: ${subject} selects DaemonSet ${stale.join(', ')}, which the App does not define (drop it from daemonSetNames)`,
    );
  if (s.podMonitor) errors.push(...podMonitorProblems(s, subject, ofService.length > 0 ? ofService : defined));
  return errors;
}

/** The PodMonitor must select the pods of every DaemonSet of the service and find the metrics port in them. */
function podMonitorProblems(s: MonitoredService, subject: string, daemonSets: readonly ApiObject[]): string[] {
  const monitor = s.podMonitor!;
  const errors: string[] = [];
  for (const ds of daemonSets) {
    const template = ds.toJson()?.spec?.template ?? {};
    const labels: { [key: string]: string } = template.metadata?.labels ?? {};
    const unmatched = Object.entries(monitor.selector).filter(([k, v]) => labels[k] !== v);
    if (unmatched.length > 0) {
      errors.push(
        `pod-monitor-misses-daemonset: ${subject} PodMonitor selects ${unmatched.map(([k, v]) => `${k}=${v}`).join(', ')}, which the pods of DaemonSet ${ds.name} do not carry: they are never scraped. Fix: select the labels every DaemonSet of the service shares (the NodeService's podSelector)`,
      );
      continue;
    }
    const containers = [...(template.spec?.containers ?? []), ...(template.spec?.initContainers ?? [])];
    const named = containers.some((c: any) => (c?.ports ?? []).some((p: any) => p?.name === monitor.port));
    if (!named) {
      errors.push(
        `pod-monitor-port-missing: ${subject} PodMonitor scrapes port '${monitor.port}', which no container of DaemonSet ${ds.name} names: it scrapes nothing there. Fix: set metrics.port to a container port name of the service (or name the port)`,
      );
    }
  }
  return errors;
}

/** The synth errors of `alerts` over its App (warnings go to the App's checks). @internal */
export function checkAlertsAgainstApp(alerts: IConstruct, services: readonly MonitoredService[]): string[] {
  const checks = NodeServiceChecks.of(alerts);
  const synthesis = checks._synthesis;
  const cached = RESULTS.get(alerts);
  if (synthesis !== undefined && cached?.synthesis === synthesis) return [...cached.errors];
  const all = daemonSetsOf(alerts.node.root);
  const errors = services.flatMap((s) => targetProblems(s, all, (t) => checks._warn(`${t} [${alerts.node.path}]`)));
  if (synthesis !== undefined) RESULTS.set(alerts, { synthesis, errors });
  return errors;
}
