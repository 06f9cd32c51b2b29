/**
 * A node pool's budget for node services: the largest share of each node's allocatable that all node services landing
 * there may request together. Checked at synth by the app-wide node-tax check (`node-tax-check.ts`).
 */

import { ProblemCollector } from '../k8s/problems';
import { checkArguments, num, object, opt, req } from '../k8s/shape';

/** Props of a {@link NodeBudget}. Give at least one share. */
export interface NodeBudgetProps {
  /**
   * The largest share of the pool's allocatable CPU, in percent (0 < x ≤ 100), that node services may request.
   * @default no CPU budget
   */
  readonly cpuPercent?: number;
  /**
   * The largest share of the pool's allocatable memory, in percent (0 < x ≤ 100), that node services may request.
   * @default no memory budget
   */
  readonly memoryPercent?: number;
}

/**
 * How much of a pool's nodes its node services may take, e.g. `NodeBudget.of({ cpuPercent: 8, memoryPercent: 10 })`.
 * Needs the pool's `allocatable`. Over budget is a synth error naming the pool, the services and their shares.
 */
export class NodeBudget {
  /** A budget of the given shares of allocatable. */
  public static of(props: NodeBudgetProps): NodeBudget {
    checkArguments('NodeBudget.of', arguments, [
      ['props', req(object('NodeBudgetProps', { cpuPercent: opt(num), memoryPercent: opt(num) }))],
    ]);
    return new NodeBudget(props);
  }

  /** CPU share in percent, if budgeted. */
  public readonly cpuPercent?: number;
  /** Memory share in percent, if budgeted. */
  public readonly memoryPercent?: number;

  private constructor(props: NodeBudgetProps) {
    // Kept as given; checked (with the construct path) by the node service that declares the pool.
    this.cpuPercent = props?.cpuPercent;
    this.memoryPercent = props?.memoryPercent;
  }
}

function checkShare(field: string, value: unknown, problems: ProblemCollector): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100) {
    problems.add(field, value, 'must be a number of percent greater than 0 and at most 100', 'write e.g. 8 for 8 % of allocatable');
  }
}

/**
 * Checks a pool's `budget` (`field` is the pool's prop path, e.g. `pools[0]`): a {@link NodeBudget}, at least one
 * share, each share in (0, 100], and the allocatable resource it is a share of.
 * @internal
 */
export function checkPoolBudget(
  field: string,
  budget: unknown,
  allocatable: { [resource: string]: string } | undefined,
  problems: ProblemCollector,
): void {
  if (budget === undefined) return;
  if (!(budget instanceof NodeBudget)) {
    problems.add(`${field}.budget`, budget, 'is not a NodeBudget', 'use NodeBudget.of({ cpuPercent: 8, memoryPercent: 10 })');
    return;
  }
  if (budget.cpuPercent === undefined && budget.memoryPercent === undefined) {
    problems.add(`${field}.budget`, {}, 'sets no share', 'give cpuPercent, memoryPercent or both');
  }
  checkShare(`${field}.budget.cpuPercent`, budget.cpuPercent, problems);
  checkShare(`${field}.budget.memoryPercent`, budget.memoryPercent, problems);
  for (const [share, resource] of [
    ['cpuPercent', 'cpu'],
    ['memoryPercent', 'memory'],
  ] as const) {
    if (budget[share] !== undefined && allocatable?.[resource] === undefined) {
      problems.add(
        `${field}.allocatable.${resource}`,
        allocatable?.[resource],
        `is needed: the budget's ${share} is a share of it`,
        `declare the pool's allocatable ${resource} (of its smallest node), e.g. allocatable: { cpu: '2', memory: '4Gi' }`,
      );
    }
  }
}
