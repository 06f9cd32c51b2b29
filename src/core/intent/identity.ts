/**
 * Identity: API access, the ServiceAccount the pods run as (created, named or brought), the token mount.
 */

import { Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { dns1123SubdomainError } from '../../k8s';
import { ProblemCollector } from '../../k8s/problems';
import type { NodeServiceProps } from '../props';

/** Resolves API access and the ServiceAccount; a derived ServiceAccount name is never reported as if set. */
export function resolveIdentity(props: NodeServiceProps, namespace: string, problems: ProblemCollector) {
  const apiAccess = props.apiAccess ?? [];
  apiAccess.forEach((p, i) => {
    const problem = p.problem();
    if (problem)
      problems.add(
        `apiAccess[${i}]`,
        p.toJson(),
        `${problem} (node services get least-privilege access)`,
        'name exact resources (lower-case plurals such as "pods") and verbs, and never Secrets',
      );
  });
  if (props.serviceAccountName !== undefined) {
    problems.check(
      'serviceAccountName',
      props.serviceAccountName,
      dns1123SubdomainError(props.serviceAccountName),
      'use a ServiceAccount name (lower-case, e.g. "fluent-bit")',
    );
    if (apiAccess.length > 0)
      problems.add(
        'serviceAccountName',
        props.serviceAccountName,
        'cannot be combined with apiAccess (which creates its own ServiceAccount)',
        'use serviceAccount (a cdk8s-plus ServiceAccount) to bind the access to a ServiceAccount of your own, or drop one of the two',
      );
  }
  const brought = props.serviceAccount === undefined ? undefined : broughtServiceAccount(props, namespace, problems);
  return {
    apiAccess,
    serviceAccountName: brought ?? (apiAccess.length > 0 ? props.name : props.serviceAccountName),
    createServiceAccount: apiAccess.length > 0 && props.serviceAccount === undefined,
    automount: props.automountServiceAccountToken ?? apiAccess.length > 0,
  };
}

/** The name of a ServiceAccount given as `serviceAccount`, checked: its grammar, its namespace, not with `serviceAccountName`. */
function broughtServiceAccount(props: NodeServiceProps, namespace: string, problems: ProblemCollector): string | undefined {
  const sa = props.serviceAccount!;
  const fix = 'pass a cdk8s-plus ServiceAccount (new kplus.ServiceAccount(...) or kplus.ServiceAccount.fromServiceAccountName(...))';
  if (typeof (sa as any).toSubjectConfiguration !== 'function') {
    problems.add('serviceAccount', sa, 'must be a cdk8s-plus IServiceAccount (it has no toSubjectConfiguration())', fix);
    return undefined;
  }
  let subject: { name?: unknown; namespace?: unknown };
  try {
    subject = sa.toSubjectConfiguration() ?? {};
  } catch (e) {
    problems.add('serviceAccount', sa.name, `cannot be read (${e instanceof Error ? e.message : String(e)})`, fix);
    return undefined;
  }
  problems.check(
    'serviceAccount.name',
    sa.name,
    dns1123SubdomainError(sa.name),
    'use a ServiceAccount name (lower-case, e.g. "fluent-bit")',
  );
  // A ServiceAccount the app defines without a namespace of its own is written to its chart's namespace.
  const saNamespace = subject.namespace ?? chartNamespaceOf(sa);
  if (saNamespace === undefined) {
    problems.add(
      'serviceAccount',
      sa.name,
      `has no namespace (it would be created wherever it is applied), but the service runs in "${namespace}"`,
      `give the ServiceAccount metadata: { namespace: "${namespace}" }, or define it in a chart with that namespace`,
    );
  } else if (saNamespace !== namespace) {
    problems.add(
      'serviceAccount',
      `${String(saNamespace)}/${sa.name}`,
      `is in namespace "${String(saNamespace)}", but the service runs in "${namespace}" (pods can only run as a ServiceAccount of their own namespace)`,
      `use a ServiceAccount of namespace "${namespace}" (ServiceAccount.fromServiceAccountName(scope, id, name, { namespaceName: "${namespace}" }))`,
    );
  }
  if (props.serviceAccountName !== undefined) {
    problems.add('serviceAccountName', props.serviceAccountName, 'cannot be combined with serviceAccount', 'give one of the two');
  }
  return sa.name;
}

/** The namespace of the chart that holds `scope`, if it is in one and the chart names one. */
function chartNamespaceOf(scope: IConstruct): string | undefined {
  try {
    return Chart.of(scope).namespace;
  } catch {
    return undefined;
  }
}
