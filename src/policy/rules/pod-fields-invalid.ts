import { dnsConfigError, dnsPolicyError, priorityClassNameError, runtimeClassNameError, sysctlNameError } from '../../k8s';
import { asArray, asObject, jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Pod-level fields the API server validates that other rules do not cover. */
export const podFieldsInvalid = defineRule({
  id: 'pod-fields-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'dnsPolicy, dnsConfig, priorityClassName, runtimeClassName and sysctl names as the API server validates them',
  rationale:
    'Kubernetes 1.28 rejects a dnsPolicy other than ClusterFirstWithHostNet, ClusterFirst, Default or None; dnsPolicy None without a dnsConfig nameserver (the pod would have no resolver), more than 3 nameservers, nameservers that are not IP addresses, more than 32 search domains; priorityClassName and runtimeClassName that are not DNS-1123 subdomains; sysctl names that are not dot- or slash-separated lower-case segments.',
  fix: 'Use one of the DNS policies (give dnsPolicy None a dnsConfig with nameservers), lower-case DNS names for the priority and runtime classes, and sysctl names such as net.ipv4.ip_local_port_range.',
  example: 'spec:\n  template:\n    spec:\n      dnsPolicy: None\n      dnsConfig:\n        nameservers: [169.254.20.10]',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    const pod = view.pod;
    // an empty dnsPolicy is defaulted to ClusterFirst before validation (SetDefaults_PodSpec)
    if (pod.dnsPolicy !== undefined && pod.dnsPolicy !== null && pod.dnsPolicy !== '') {
      const err = dnsPolicyError(pod.dnsPolicy);
      if (err) out.push({ path: jsonPath(view.podPath, 'dnsPolicy'), message: `dnsPolicy ${show(pod.dnsPolicy)} ${err}` });
    }
    const dnsErr = dnsConfigError(
      pod.dnsPolicy,
      pod.dnsConfig === undefined || pod.dnsConfig === null ? undefined : asObject(pod.dnsConfig),
    );
    if (dnsErr) out.push({ path: jsonPath(view.podPath, pod.dnsConfig ? 'dnsConfig' : 'dnsPolicy'), message: dnsErr });
    for (const [field, error] of [
      ['priorityClassName', priorityClassNameError],
      ['runtimeClassName', runtimeClassNameError],
    ] as const) {
      const v = pod[field];
      if (v === undefined || v === null || v === '') continue;
      const err = error(v);
      if (err) out.push({ path: jsonPath(view.podPath, field), message: `${field} ${show(v)} ${err}` });
    }
    asArray(view.podSecurityContext.sysctls).forEach((raw, i) => {
      const name = asObject(raw).name;
      const err = sysctlNameError(name);
      if (err) out.push({ path: jsonPath(view.podPath, 'securityContext', 'sysctls', i, 'name'), message: `sysctl ${show(name)} ${err}` });
    });
    return out;
  },
});
