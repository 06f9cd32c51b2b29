/**
 * Shared support for the rule case files (`<rule-id>.test.ts`, one per rule of the catalogue): the case shapes, the
 * helpers that change the compliant DaemonSet, and the runner that turns a rule's cases into tests.
 */

import { RuleConfig } from '../../../src/policy/config';
import { checkManifests } from '../../../src/policy/engine';
import { RULES } from '../../../src/policy/rules';
import { TRUST_LABEL_KEY } from '../../../src/k8s/vocabulary';
import { synthGuardrails } from '../../guardrails/fixtures';
import { compliantDaemonSet, mainContainer, namespaceObject, podOf } from '../support';

export { compliantDaemonSet, mainContainer, namespaceObject, podOf };

/** JSON path of the first container of the DaemonSet. */
export const C0 = 'spec.template.spec.containers[0]';
/** JSON path of the pod spec of the DaemonSet. */
export const POD = 'spec.template.spec';

/** A manifest that the rule must pass: the compliant DaemonSet, changed. */
export interface CompliantCase {
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

/** A manifest that the rule must report, at a given field. */
export interface NonCompliantCase extends CompliantCase {
  /** JSON path the finding must name. */
  readonly path: string;
  /** Text the message must contain (the bad value). */
  readonly message?: RegExp;
  /** The severity expected for the case's kind, when it is not the rule's default. */
  readonly severity?: string;
}

/** The cases of one rule: at least one manifest it reports and one it passes. */
export interface RuleCases {
  readonly nonCompliant: NonCompliantCase[];
  readonly compliant: CompliantCase[];
}

/** Guardrail policies (as NodeServiceGuardrails renders them) and the trusted `logging` Namespace. */
export const guardrails = (registryAllowlist: string[]) => [
  ...synthGuardrails({ contact: '#platform-team', platformGroups: ['platform-admins'], registryAllowlist }),
  namespaceObject('logging', { [TRUST_LABEL_KEY]: 'true' }),
];

/** Gives the DaemonSet a restricted init container (with `extra` fields). */
export const sidecarInit = (ds: any, extra: any = {}) => {
  podOf(ds).initContainers = [
    {
      name: 'init-config',
      image: 'busybox:1.36',
      securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
      ...extra,
    },
  ];
};

/** Gives the main container the log agent's position database: a writable, typed host path. */
export const writableStateDir = (ds: any) => {
  podOf(ds).volumes.push({ name: 'state', hostPath: { path: '/var/lib/fluent-bit', type: 'DirectoryOrCreate' } });
  mainContainer(ds).volumeMounts.push({ name: 'state', mountPath: '/var/lib/fluent-bit' });
};

/** A ServiceAccount fluent-bit in logging with a ClusterRole of one rule bound to it. */
export const rbacFor = (rule: any) => [
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

/** The findings of one rule for a case. */
function findingsOf(ruleId: string, c: CompliantCase) {
  const ds = compliantDaemonSet(c.kind);
  c.mutate(ds);
  const report = checkManifests([ds, ...(c.others ?? [])], c.config);
  return report.findings.filter((f) => f.ruleId === ruleId);
}

/** Registers the tests of one rule: each non-compliant case is reported at its field, each compliant case is not. */
export function describeRule(ruleId: string, cases: RuleCases): void {
  describe.each(cases.nonCompliant.map((c) => [ruleId, c.name, c] as const))('%s: non-compliant (%s)', (_rule, _name, c) => {
    test('is reported at the offending field', () => {
      // GIVEN a DaemonSet broken in one way WHEN it is checked
      const findings = findingsOf(ruleId, c);
      // THEN the rule reports the field, naming the bad value
      const atPath = findings.filter((f) => f.path === c.path);
      expect(atPath.map((f) => f.path)).toContain(c.path);
      if (c.message) expect(atPath.map((f) => f.message).join('\n')).toMatch(c.message);
      const rule = RULES.find((r) => r.id === ruleId)!;
      expect(atPath[0].severity).toBe(c.severity ?? rule.severity);
      expect(atPath[0].fix).toBe(rule.fix);
    });
  });

  describe.each(cases.compliant.map((c) => [ruleId, c.name, c] as const))('%s: compliant (%s)', (_rule, _name, c) => {
    test('is not reported', () => {
      // GIVEN a DaemonSet that satisfies the rule WHEN it is checked THEN the rule reports nothing
      expect(findingsOf(ruleId, c)).toEqual([]);
    });
  });
}
