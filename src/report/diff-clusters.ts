/**
 * The report of `diff --clusters` in each format: each cluster's diff as the single diff renders it, under a heading
 * that says whether the cluster is in both versions, added or removed, and a summary of the clusters.
 */

import { DiffReport } from '../day2/diff';
import { formatDiffMarkdown, formatDiffSarif, formatDiffText } from '../day2/format';

/** How a cluster of `diff --clusters` changed: in both versions, only in the new one, only in the old one. */
export type ClusterChange = 'kept' | 'added' | 'removed';

/** One cluster's diff in `diff --clusters`. */
export interface ClusterDiff {
  readonly name: string;
  readonly status: ClusterChange;
  readonly report: DiffReport;
}

/** The formats of the diff report. */
export type DiffFormat = 'text' | 'json' | 'markdown' | 'sarif';

const CLUSTER_WORDS: Record<ClusterChange, string> = {
  kept: 'in both versions',
  added: 'added (only in the new version)',
  removed: 'removed (only in the old version)',
};

function clusterSummary(clusters: readonly ClusterDiff[]): string {
  const of = (status: ClusterChange) => clusters.filter((c) => c.status === status).map((c) => c.name);
  const part = (names: string[], word: string) => `${names.length} ${word}${names.length > 0 ? ` (${names.join(', ')})` : ''}`;
  return `Clusters: ${part(of('added'), 'added')}, ${part(of('removed'), 'removed')}, ${part(of('kept'), 'in both versions')}.`;
}

/** One SARIF run: every cluster's results, each message naming its cluster (the locations are the cluster's files). */
function clustersSarif(clusters: readonly ClusterDiff[], toolVersion: string): string {
  const logs = clusters.map((c) => ({ name: c.name, log: JSON.parse(formatDiffSarif(c.report, toolVersion)) }));
  const merged = logs.length > 0 ? logs[0].log : JSON.parse(formatDiffSarif({ daemonSets: [], unchanged: 0 }, toolVersion));
  merged.runs[0].results = logs.flatMap(({ name, log }) =>
    log.runs[0].results.map((r: any) => ({ ...r, message: { ...r.message, text: `cluster ${name}: ${r.message.text}` } })),
  );
  return `${JSON.stringify(merged, null, 2)}\n`;
}

function clustersMarkdown(clusters: readonly ClusterDiff[]): string {
  const parts = [
    `## node-services diff of ${clusters.length} cluster${clusters.length === 1 ? '' : 's'}`,
    '',
    clusterSummary(clusters),
    '',
  ];
  for (const c of clusters) {
    const body = formatDiffMarkdown(c.report)
      .replace(/^## node-services diff\n/, '')
      .replace(/^### /gm, '#### ');
    parts.push(`### Cluster \`${c.name}\`: ${CLUSTER_WORDS[c.status]}`, body);
  }
  return `${parts
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

/** The per-cluster diff in `format` (`toolVersion` names the tool in SARIF). */
export function formatDiffClusters(clusters: readonly ClusterDiff[], format: DiffFormat, toolVersion: string): string {
  if (format === 'json') {
    const json = clusters.map((c) => ({ name: c.name, status: c.status, daemonSets: c.report.daemonSets, unchanged: c.report.unchanged }));
    return `${JSON.stringify({ clusters: json }, null, 2)}\n`;
  }
  if (format === 'sarif') return clustersSarif(clusters, toolVersion);
  if (format === 'markdown') return clustersMarkdown(clusters);
  const blocks = clusters.map((c) => `Cluster ${c.name}: ${CLUSTER_WORDS[c.status]}\n\n${formatDiffText(c.report)}`);
  return `${[...blocks, `${clusterSummary(clusters)}\n`].join('\n')}`;
}
