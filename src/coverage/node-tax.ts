/**
 * The node tax: what every node service that lands on a node requests there, summed, against the node's allocatable
 * and an optional budget (a share of allocatable that node services may take).
 *
 * A service's requests are the scheduler's effective pod requests (`resources.ts`, `resource.PodRequests`): per
 * resource, max(sum of the app containers (+ sidecars from 1.29), the largest init container (+ the sidecars before
 * it)), plus the RuntimeClass overhead. Only services whose DaemonSet the controller places on the node count (the
 * coverage verdict `desired`), so a GPU exporter does not tax CPU pools.
 */

import { formatBytes, formatMilliCpu } from './quantity';
import { ResourceVector } from './resources';

/** A budget: the largest share of a node's allocatable that node services together may request. */
export interface TaxBudget {
  /** CPU, in percent of allocatable CPU (0 < x ≤ 100). @default no CPU budget */
  readonly cpuPercent?: number;
  /** Memory, in percent of allocatable memory (0 < x ≤ 100). @default no memory budget */
  readonly memoryPercent?: number;
}

/** One service's requests on a node (milli-CPU, bytes). */
export interface ServiceRequests {
  /** `namespace/name` or the service's name. */
  readonly name: string;
  /** CPU request in milli-units. */
  readonly cpu: number;
  /** Memory request in bytes. */
  readonly memory: number;
}

/** One service's share of a node (or pool). */
export interface ServiceShare extends ServiceRequests {
  /** CPU request in percent of allocatable CPU (`undefined` when allocatable CPU is 0). */
  readonly cpuPercent: number | undefined;
  /** Memory request in percent of allocatable memory (`undefined` when allocatable memory is 0). */
  readonly memoryPercent: number | undefined;
}

/** The node tax of one node (or of the node standing for a pool). */
export interface NodeTax {
  /** Summed CPU requests of the services that land there, milli-CPU. */
  readonly cpu: number;
  /** Summed memory requests, bytes. */
  readonly memory: number;
  /** Number of node-service pods (each takes a pod slot). */
  readonly pods: number;
  /** Allocatable CPU, milli-CPU. */
  readonly allocatableCpu: number;
  /** Allocatable memory, bytes. */
  readonly allocatableMemory: number;
  /** Allocatable pod slots (0 when unknown). */
  readonly allocatablePods: number;
  /** `cpu` in percent of allocatable (`undefined` when allocatable CPU is 0). */
  readonly cpuPercent: number | undefined;
  /** `memory` in percent of allocatable (`undefined` when allocatable memory is 0). */
  readonly memoryPercent: number | undefined;
  /** Each service that lands there, largest share first. */
  readonly services: ServiceShare[];
  /** What exceeds allocatable (`cpu 300m of 250m allocatable`…); empty when everything fits. */
  readonly overAllocatable: string[];
  /** What exceeds the budget (`cpu 12% of allocatable, budget 8%`…); empty when within it or without a budget. */
  readonly overBudget: string[];
}

function percent(part: number, whole: number): number | undefined {
  return whole > 0 ? (part * 100) / whole : undefined;
}

/** `12.5%` (one decimal, trailing `.0` dropped). */
export function formatPercent(value: number | undefined): string {
  if (value === undefined) return 'n/a';
  const rounded = Math.round(value * 10) / 10;
  return `${rounded}%`;
}

/**
 * The tax of `services` (the ones that land on the node) against `allocatable` (in scheduler units) and `budget`.
 * `allocatablePods` 0 means unknown (pod slots are then not checked).
 */
export function nodeTax(
  services: readonly ServiceRequests[],
  allocatable: ResourceVector,
  allocatablePods: number,
  budget?: TaxBudget,
): NodeTax {
  let cpu = 0;
  let memory = 0;
  for (const s of services) {
    cpu += s.cpu;
    memory += s.memory;
  }
  const shares: ServiceShare[] = services.map((s) => ({
    ...s,
    cpuPercent: percent(s.cpu, allocatable.cpu),
    memoryPercent: percent(s.memory, allocatable.memory),
  }));
  // Largest share first: the larger of the CPU and memory shares, then by name.
  const weight = (s: ServiceShare) => Math.max(s.cpuPercent ?? 0, s.memoryPercent ?? 0);
  shares.sort((a, b) => weight(b) - weight(a) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const cpuPercent = percent(cpu, allocatable.cpu);
  const memoryPercent = percent(memory, allocatable.memory);
  const overAllocatable: string[] = [];
  if (cpu > allocatable.cpu) overAllocatable.push(`cpu ${formatMilliCpu(cpu)} of ${formatMilliCpu(allocatable.cpu)} allocatable`);
  if (memory > allocatable.memory) overAllocatable.push(`memory ${formatBytes(memory)} of ${formatBytes(allocatable.memory)} allocatable`);
  if (allocatablePods > 0 && services.length > allocatablePods)
    overAllocatable.push(`${services.length} pods of ${allocatablePods} pod slots`);
  const overBudget: string[] = [];
  if (budget?.cpuPercent !== undefined && cpu > (allocatable.cpu * budget.cpuPercent) / 100) {
    overBudget.push(
      `cpu ${formatMilliCpu(cpu)} is ${formatPercent(cpuPercent)} of allocatable, over the budget of ${formatPercent(budget.cpuPercent)}`,
    );
  }
  if (budget?.memoryPercent !== undefined && memory > (allocatable.memory * budget.memoryPercent) / 100) {
    overBudget.push(
      `memory ${formatBytes(memory)} is ${formatPercent(memoryPercent)} of allocatable, over the budget of ${formatPercent(budget.memoryPercent)}`,
    );
  }
  return {
    cpu,
    memory,
    pods: services.length,
    allocatableCpu: allocatable.cpu,
    allocatableMemory: allocatable.memory,
    allocatablePods,
    cpuPercent,
    memoryPercent,
    services: shares,
    overAllocatable,
    overBudget,
  };
}

/** `name cpu 100m (40%), memory 256Mi (50%)` for each service. */
export function describeShares(services: readonly ServiceShare[]): string {
  return services
    .map(
      (s) =>
        `${s.name} cpu ${formatMilliCpu(s.cpu)} (${formatPercent(s.cpuPercent)}), memory ${formatBytes(s.memory)} (${formatPercent(s.memoryPercent)})`,
    )
    .join('; ');
}
