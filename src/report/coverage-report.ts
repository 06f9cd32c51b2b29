/**
 * The coverage report in each of its formats (text, JSON, JSON lines, HTML), of one cluster or of a fleet, one
 * cluster after the other (only one cluster's data is held at a time, except for the HTML page of a fleet).
 */

import { ChunkedOut } from './chunked-out';
import { CoverageHtmlInput, writeCoverageHtmlClustersPage, writeCoverageHtmlPage } from './coverage-html';
import { writeJson, writeJsonLines } from './coverage-json';
import { LEGEND, writeText } from './coverage-text';
import { COLOURS, painter } from './text-table';
import { TaxBudget } from '../coverage/node-tax';
import { PoolTax, poolTaxes } from '../coverage/pool-tax';
import { CoverageReport } from '../coverage/types';
import { CLUSTER_VERSION_FILE } from '../manifests/cluster-version';

/** The formats of the coverage report. */
export type CoverageFormat = 'text' | 'json' | 'jsonl' | 'html';

/** What one cluster's coverage run read and found. */
export interface CoverageRun {
  readonly report: CoverageReport;
  /** The manifests read (the DaemonSets, PriorityClass and RuntimeClass objects among them). */
  readonly workloads: readonly any[];
  /** The node names, by node index. */
  readonly names: string[];
  readonly pools: PoolTax[];
  /** The label keys the pools were read from. */
  readonly poolLabels: string[];
  /** The pool of each node, by node index. */
  readonly poolOf: string[];
}

/** How the report is written. */
export interface CoverageOutput {
  readonly format: CoverageFormat;
  readonly budget: TaxBudget | undefined;
  /** Whether the JSON report holds the node tax (`pools`): when a pool label, a budget or a budget gate is given. */
  readonly jsonPools: boolean;
  /** Whether the text report is painted for a terminal. */
  readonly tty: boolean;
}

function htmlInput(run: CoverageRun, budget: TaxBudget | undefined): CoverageHtmlInput {
  return { report: run.report, poolOf: run.poolOf, pools: run.pools, poolLabels: run.poolLabels, budget };
}

/** Writes one cluster's report in `output.format`. */
export function writeCoverage(out: ChunkedOut, run: CoverageRun, output: CoverageOutput): void {
  const { report, pools, poolLabels } = run;
  if (output.format === 'html') writeCoverageHtmlPage(htmlInput(run, output.budget), (text) => out.write(text));
  else if (output.format === 'json') {
    writeJson(out, report, run.names, output.jsonPools ? pools : undefined);
    out.write('\n');
  } else if (output.format === 'jsonl') writeJsonLines(out, report, pools);
  else writeText(out, report, run.workloads, pools, poolLabels, output.budget, output.tty);
}

/** How a fleet report introduces a cluster: its name, folder and nodes file, and the Kubernetes version it is read at. */
export interface ClusterHeading {
  readonly name: string;
  readonly folder: string;
  readonly nodes: string;
  /** The version given with `--kubernetes-version` (for every cluster). */
  readonly versionGiven?: string;
  /** The version the cluster folder records. */
  readonly versionRecorded?: string;
}

/** A fleet's coverage report, written cluster by cluster: {@link cluster} for each, then {@link end}. */
export class ClustersCoverageWriter {
  private first = true;
  private readonly missing: string[] = [];
  private readonly overBudget: string[] = [];
  private readonly html: Array<{ name: string; input: CoverageHtmlInput }> = [];

  /** `names`: every cluster of the report, in order. */
  constructor(
    private readonly out: ChunkedOut,
    private readonly output: CoverageOutput,
    private readonly names: readonly string[],
  ) {
    if (output.format === 'json') out.write('{\n  "clusters": [');
  }

  /** Writes one cluster's report (`verdicts`: whether it misses wanted nodes, and whether a pool is over budget). */
  public cluster(heading: ClusterHeading, run: CoverageRun, verdicts: { missing: boolean; overBudget: boolean }): void {
    if (verdicts.missing) this.missing.push(heading.name);
    if (verdicts.overBudget) this.overBudget.push(heading.name);
    const { out, output } = this;
    if (output.format === 'html') this.html.push({ name: heading.name, input: htmlInput(run, output.budget) });
    else if (output.format === 'json') {
      out.write(`${this.first ? '' : ','}\n    `);
      writeJson(out, run.report, run.names, output.jsonPools ? run.pools : undefined, { name: heading.name, indent: '    ' });
    } else if (output.format === 'jsonl') writeJsonLines(out, run.report, run.pools, heading.name);
    else {
      out.write(`${this.first ? '' : '\n'}${this.headingText(heading)}\n\n`);
      writeText(out, run.report, run.workloads, run.pools, run.poolLabels, output.budget, output.tty, false);
    }
    this.first = false;
  }

  /** Writes the end of the report: the JSON's closing lines, the text's summary, or the whole HTML page. */
  public end(): void {
    const { out, output } = this;
    if (output.format === 'html') writeCoverageHtmlClustersPage(this.html, this.names, (text) => out.write(text));
    if (output.format === 'json') out.write('\n  ]\n}\n');
    if (output.format === 'text') {
      const names = (list: readonly string[]) => (list.length > 0 ? list.join(', ') : 'none');
      const count = this.names.length;
      out.write(
        `\n${count} cluster${count === 1 ? '' : 's'} (${this.names.join(', ')}); ` +
          `missing or invalid DaemonSets in: ${names(this.missing)}; node tax over allocatable or budget in: ${names(this.overBudget)}. ${LEGEND}\n`,
      );
    }
  }

  private headingText(c: ClusterHeading): string {
    const version =
      c.versionGiven !== undefined
        ? `, Kubernetes ${c.versionGiven.trim()}`
        : c.versionRecorded !== undefined
          ? `, Kubernetes ${c.versionRecorded} (${CLUSTER_VERSION_FILE})`
          : '';
    return `${painter(this.output.tty)(COLOURS.bold, `Cluster ${c.name}`)} (${c.folder}, nodes ${c.nodes}${version})`;
  }
}

/**
 * @internal A report as `coverage` writes it in `format` (`text`, `json` or `jsonl`, with the node tax of the default
 * pool labels), as one string: the formatting of the command without its reading.
 */
export function formatCoverage(
  report: CoverageReport,
  manifests: readonly any[],
  nodes: readonly any[],
  format: 'text' | 'json' | 'jsonl',
  tty = false,
): string {
  const chunks: string[] = [];
  const out = new ChunkedOut((text) => void chunks.push(text));
  const { pools, labels } = poolTaxes(report, manifests, nodes, undefined, undefined, undefined);
  const names = nodes.map((n) => n.metadata.name as string);
  if (format === 'json') writeJson(out, report, names, pools);
  else if (format === 'jsonl') writeJsonLines(out, report, pools);
  else writeText(out, report, manifests, pools, labels, undefined, tty);
  out.flush();
  return chunks.join('');
}
