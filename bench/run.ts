/**
 * `npm run bench`: every performance target, measured side by side in one run, as ratios with the medians behind
 * them. Prints a table and writes bench/results.json.
 */

import * as fs from 'fs';
import * as path from 'path';
import { benchCoverage } from './coverage';
import { coverageCliRows } from './coverage-cli';
import { benchLint } from './lint';
import { reportRows } from './report';
import { benchCdk8sCli, benchSynth } from './synth';

interface Row {
  readonly measure: string;
  readonly subject: string;
  readonly baseline: string;
  readonly ratio: number;
  readonly target: number;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const rows: Row[] = [];
  const results: Record<string, unknown> = {};

  const synth = benchSynth();
  results.synth = synth;
  rows.push({
    measure: `synth ${synth.services} node services (all rules) ÷ ${synth.services} cdk8s-plus DaemonSets`,
    subject: ms(synth.nodeServicesMs),
    baseline: ms(synth.cdk8sPlusMs),
    ratio: synth.ratio,
    target: 1.25,
  });

  const lint = await benchLint();
  results.lint = lint;
  rows.push({
    measure: 'lint 1,000-DaemonSet file ÷ yaml parse of it',
    subject: ms(lint.lintMs),
    baseline: ms(lint.parseMs),
    ratio: lint.ratio,
    target: 2,
  });
  rows.push({
    measure: 'CLI cold start (lint one file) ÷ node -e 0',
    subject: ms(lint.cliMs),
    baseline: ms(lint.nodeMs),
    ratio: lint.coldStartRatio,
    target: 2,
  });

  const coverage = await benchCoverage();
  results.coverage = coverage;
  rows.push({
    measure: `coverage ${coverage.nodes} nodes × ${coverage.daemonSets} DaemonSets ÷ JSON.parse of the nodes file`,
    subject: ms(coverage.analysisMs),
    baseline: ms(coverage.jsonParseMs),
    ratio: coverage.ratio,
    target: 1,
  });

  for (const row of await coverageCliRows(results)) rows.push(row);
  for (const row of await reportRows(results)) rows.push(row);

  const cli = benchCdk8sCli();
  results.cdk8sCli = cli;
  rows.push({
    measure: 'npx cdk8s synth (examples) ÷ npx cdk8s --version',
    subject: ms(cli.synthMs),
    baseline: ms(cli.versionMs),
    ratio: cli.ratio,
    target: 1.3,
  });

  const width = Math.max(...rows.map((r) => r.measure.length));
  const lines = [
    `${'measure'.padEnd(width)}  ${'median'.padStart(11)}  ${'baseline'.padStart(11)}  ${'ratio'.padStart(6)}  target  ok`,
    ...rows.map(
      (r) =>
        `${r.measure.padEnd(width)}  ${r.subject.padStart(11)}  ${r.baseline.padStart(11)}  ${r.ratio.toFixed(2).padStart(6)}  ≤ ${r.target.toFixed(2)}  ${r.ratio <= r.target ? 'yes' : 'NO'}`,
    ),
  ];
  console.log(lines.join('\n'));
  console.log(
    `coverage peak memory: RSS ${coverage.peakRssMiB.toFixed(0)} MiB; heap with nodes and report alive ${coverage.heapUsedMiB.toFixed(0)} MiB`,
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(`bench finished in ${seconds.toFixed(1)} s`);
  const out = { date: new Date().toISOString(), node: process.version, seconds, rows, results };
  fs.writeFileSync(path.join(__dirname, 'results.json'), JSON.stringify(out, null, 2) + '\n');
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
