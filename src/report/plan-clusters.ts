/** The report of `plan --clusters` in text and JSON: each cluster's plan as the single plan renders it, under its name. */

import { formatPlanJson, formatPlanText } from '../day2/format';
import { PlanReport } from '../day2/plan';

/** One cluster's rollout plan. */
export interface ClusterPlan {
  readonly name: string;
  readonly report: PlanReport;
}

/** The per-cluster plan in `format`; the clusters in `added` are marked as new in the fleet (text). */
export function formatPlanClusters(reports: readonly ClusterPlan[], format: 'text' | 'json', added: readonly string[]): string {
  if (format === 'json') {
    const json = reports.map(({ name, report }) => ({ name, ...JSON.parse(formatPlanJson(report)) }));
    return `${JSON.stringify({ clusters: json }, null, 2)}\n`;
  }
  const blocks = reports.map(
    ({ name, report }) => `Cluster ${name}${added.includes(name) ? ' (new in the fleet)' : ''}\n\n${formatPlanText(report)}`,
  );
  return blocks.join('\n');
}
