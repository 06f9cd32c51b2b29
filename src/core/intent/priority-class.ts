/**
 * The PriorityClass a service creates for its pods, checked: a name that is not reserved, a value below the system
 * classes', not with `priorityClassName`.
 */

import { dns1123SubdomainError, int32Error } from '../../k8s';
import { ProblemCollector } from '../../k8s/problems';
import type { PriorityClassOptions } from '../priority-class';
import type { NodeServiceProps } from '../props';

/** The highest value of a PriorityClass that is not a system class. */
const MAX_USER_PRIORITY = 1_000_000_000;

/** Resolves `priorityClass`: a name that is not reserved, a value below the system classes', not with `priorityClassName`. */
export function resolvePriorityClass(props: NodeServiceProps, problems: ProblemCollector): PriorityClassOptions | undefined {
  const o = props.priorityClass?.options;
  if (!o) return undefined;
  problems.check('priorityClass.name', o.name, dns1123SubdomainError(o.name), 'use a lower-case name such as "node-agents-high"');
  if (typeof o.name === 'string' && o.name.startsWith('system-'))
    problems.add(
      'priorityClass.name',
      o.name,
      "the 'system-' prefix is reserved for the built-in classes",
      'use priorityClassName for a system class, or another name',
    );
  if (typeof o.value === 'number' && (o.value > MAX_USER_PRIORITY || int32Error(o.value)))
    problems.add(
      'priorityClass.value',
      o.value,
      `must be a whole number of at most ${MAX_USER_PRIORITY} (higher values are reserved for system classes)`,
      'use e.g. 1000000',
    );
  if (props.priorityClassName !== undefined)
    problems.add(
      'priorityClassName',
      props.priorityClassName,
      'cannot be combined with priorityClass (which names the class it creates)',
      'use one or the other',
    );
  return o;
}
