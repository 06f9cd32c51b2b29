/**
 * The Pod Security Standards evaluator as a class of static members, for every language (jsii carries classes, not
 * free functions). Apart from `pod-security.ts` so that the evaluator, which the lint rules use, does not load the
 * core's argument checks.
 */

import { checkArguments, list as listOf, oneOf, req } from '../k8s/shape';
import {
  evaluatePodSecurity,
  POD_SECURITY_POLICY_VERSION,
  PodSecurityEvaluation,
  PodSecurityLevel,
  strictestCommonLevel,
} from '../admission/pod-security';

/**
 * The Pod Security Standards evaluator as static members, for every language (jsii carries classes, not free
 * functions): the same as {@link evaluatePodSecurity}, {@link strictestCommonLevel} and
 * {@link POD_SECURITY_POLICY_VERSION}.
 */
export class PodSecurity {
  /** The policy version evaluated (`POD_SECURITY_POLICY_VERSION`). */
  public static readonly POLICY_VERSION: string = POD_SECURITY_POLICY_VERSION;

  /** The strictest level a Pod, pod template or workload meets, with the violations of the stricter levels. */
  public static evaluate(object: any): PodSecurityEvaluation {
    return evaluatePodSecurity(object);
  }

  /** The strictest level that every one of `levels` allows (restricted for none). */
  public static strictestCommonLevel(levels: PodSecurityLevel[]): PodSecurityLevel {
    checkArguments('PodSecurity.strictestCommonLevel', arguments, [
      ['levels', req(listOf(oneOf('PodSecurityLevel', Object.values(PodSecurityLevel))))],
    ]);
    return strictestCommonLevel(levels);
  }

  private constructor() {}
}
