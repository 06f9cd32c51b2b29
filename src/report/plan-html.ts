/**
 * The HTML rollout plan (`node-services plan --format html`): per DaemonSet its budgets and outcome, and its waves on
 * a timeline (one wave per step of pull + ready + minReadySeconds), with a deadlock (the nodes that hold the budget)
 * and the new pods that cannot be placed (surge or resources) marked. Rendered from the {@link PlanReport} the JSON
 * output serializes, so the two cannot disagree; node names are sampled, so a fleet's plan stays small.
 */

import { agree, escapeHtml, htmlPage, plural, sampleNames, sentence } from './html';
import { Placement, planLegend, placementTag } from './placement';
import { PlanReport, RolloutPlan } from '../day2/plan';

/** Node names listed per wave or problem. */
const SAMPLE = 5;

const OUTCOMES: Record<RolloutPlan['outcome'], { cls: string; text: string }> = {
  complete: { cls: 't-ok', text: 'completes' },
  stuck: { cls: 't-bad', text: 'stuck (deadlock)' },
  manual: { cls: 't-warn', text: 'manual (OnDelete)' },
  unchanged: { cls: 't-ok', text: 'unchanged' },
  invalid: { cls: 't-bad', text: 'invalid' },
};

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m < 60 ? `${m}m${s > 0 ? ` ${s}s` : ''}` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

function timeline(d: RolloutPlan, step: number): string {
  const waves = d.waves.map(
    (w) =>
      `<li class="wave" data-wave="${w.wave}"><strong>wave ${w.wave}</strong> at ${escapeHtml(duration((w.wave - 1) * step))}` +
      `<br>${plural(w.nodes.length, 'node')}<br>${sampleNames(w.nodes, w.nodes.length, 3)}</li>`,
  );
  if (d.outcome === 'stuck') {
    waves.push(
      `<li class="wave stuck" data-problem="deadlock"><span class="icon" aria-hidden="true">✕</span> <strong>deadlock</strong><br>${plural(d.neverUpdated.length, 'node')} never updated` +
        `<br>held by ${sampleNames(
          d.blockedBy.map((b) => b.node),
          d.blockedBy.length,
          3,
        )}</li>`,
    );
  }
  if (waves.length === 0) return '';
  return `<ol class="timeline" aria-label="${escapeHtml(`rollout waves of ${d.namespace}/${d.name}`)}">${waves.join('')}</ol>\n`;
}

function daemonSetSection(d: RolloutPlan, k: number, report: PlanReport): string {
  const outcome = OUTCOMES[d.outcome];
  const step = report.assumptions.pullSeconds + report.assumptions.readySeconds + d.minReadySeconds;
  let html =
    `<section class="rollout" id="ds-${k}" data-service="${escapeHtml(`${d.namespace}/${d.name}`)}" data-outcome="${d.outcome}">\n` +
    `<h2><code>${escapeHtml(`${d.namespace}/${d.name}`)}</code> <span class="tag ${outcome.cls}">${outcome.text}</span></h2>\n` +
    `<p>${escapeHtml(sentence(d.because))}. ${escapeHtml(d.strategy)}: ${plural(d.toUpdate, 'node')} to update of ${d.desired} desired, ` +
    `maxUnavailable ${d.maxUnavailable}, maxSurge ${d.maxSurge}, ${plural(d.waves.length, 'wave')}` +
    (d.estimatedSeconds !== null ? `, about ${escapeHtml(duration(d.estimatedSeconds))}` : '') +
    (d.unavailableAtStart.length > 0 ? `; ${plural(d.unavailableAtStart.length, 'node')} unavailable at the start` : '') +
    '.</p>\n';
  html += timeline(d, step);
  if (d.blockedBy.length > 0) {
    html +=
      `<table class="problems"><caption>Deadlock: nodes that hold the unavailable budget</caption>\n<thead><tr><th scope="col">Node</th><th scope="col">Why its new pod never becomes available</th></tr></thead>\n<tbody>` +
      d.blockedBy
        .slice(0, 20)
        .map((b) => `<tr><th scope="row"><code>${escapeHtml(b.node)}</code></th><td>${escapeHtml(b.reason)}</td></tr>`)
        .join('') +
      (d.blockedBy.length > 20 ? `<tr><td colspan="2">and ${d.blockedBy.length - 20} more</td></tr>` : '') +
      '</tbody></table>\n';
  }
  if (d.unfit.length > 0) {
    const groups = new Map<string, { reason: string; detail: string; nodes: string[]; count: number }>();
    for (const u of d.unfit) {
      const key = `${u.reason}\u0000${u.detail}`;
      const g = groups.get(key);
      if (g === undefined) groups.set(key, { reason: u.reason, detail: u.detail, nodes: [u.node], count: 1 });
      else {
        g.count++;
        if (g.nodes.length < SAMPLE) g.nodes.push(u.node);
      }
    }
    html +=
      `<p>${placementTag(Placement.GAP, d.maxSurge > 0 ? ': surge' : ': unfit')} ${plural(d.unfit.length, 'new pod')} cannot be placed on ${agree(d.unfit.length, 'a node', 'nodes')} the DaemonSet targets:</p><ul class="groups">` +
      [...groups.values()]
        .slice(0, 12)
        .map(
          (g) =>
            `<li data-problem="unfit">${plural(g.count, 'node')} — <strong>${escapeHtml(g.reason)}</strong>: ${escapeHtml(g.detail)}<br>${sampleNames(g.nodes, g.count, SAMPLE)}</li>`,
        )
        .join('') +
      (groups.size > 12 ? `<li>and ${plural(groups.size - 12, 'more group')}</li>` : '') +
      '</ul>\n';
  }
  if (d.canary !== undefined) {
    html +=
      `<p>Canary of <code>${escapeHtml(d.canary.stable)}</code> (label <code>${escapeHtml(d.canary.label)}</code>): ` +
      `${plural(d.canary.labelled.length, 'node')} labelled, ${plural(d.canary.waves.length, 'more wave')}.</p>\n`;
  }
  if (d.notes.length > 0) html += `<ul>${d.notes.map((n) => `<li>${escapeHtml(sentence(n))}</li>`).join('')}</ul>\n`;
  return `${html}</section>\n`;
}

/** The HTML rollout plan, one self-contained page. */
export function formatPlanHtml(report: PlanReport): string {
  const changing = report.daemonSets.filter((d) => d.changes);
  const stuck = report.daemonSets.filter((d) => d.outcome === 'stuck' || d.outcome === 'invalid').length;
  const rows = report.daemonSets
    .map(
      (d, k) =>
        `<tr data-service="${escapeHtml(`${d.namespace}/${d.name}`)}"><th scope="row"><a href="#ds-${k}"><code>${escapeHtml(`${d.namespace}/${d.name}`)}</code></a></th>` +
        `<td><span class="tag ${OUTCOMES[d.outcome].cls}">${OUTCOMES[d.outcome].text}</span></td><td>${escapeHtml(d.strategy)}</td>` +
        `<td class="num">${d.toUpdate}</td><td class="num">${d.waves.length}</td><td class="num">${d.estimatedSeconds !== null ? escapeHtml(duration(d.estimatedSeconds)) : '–'}</td>` +
        `<td class="num${d.unfit.length > 0 ? ' p-gap' : ''}">${d.unfit.length}</td><td class="num">${d.blockedBy.length}</td></tr>`,
    )
    .join('\n');
  const body =
    `<header><h1>Rollout plan</h1>\n<p class="lead">${plural(report.daemonSets.length, 'DaemonSet')}, ${changing.length} changing; ` +
    `each wave takes ${report.assumptions.pullSeconds}s to pull + ${report.assumptions.readySeconds}s to ready (+ minReadySeconds). ` +
    `<strong>${stuck === 0 ? 'Every rollout can complete.' : `${plural(stuck, 'rollout')} cannot complete.`}</strong></p></header>\n` +
    '<table class="plan"><caption>DaemonSets: outcome, waves and problems</caption>\n<thead><tr><th scope="col">DaemonSet</th><th scope="col">Outcome</th>' +
    '<th scope="col">Strategy</th><th scope="col">To update</th><th scope="col">Waves</th><th scope="col">Estimate</th><th scope="col">Unfit pods</th><th scope="col">Blocking nodes</th></tr></thead>\n' +
    `<tbody>\n${rows}\n</tbody></table>\n` +
    planLegend() +
    report.daemonSets.map((d, k) => daemonSetSection(d, k, report)).join('') +
    '<footer>Generated by <code>node-services plan --format html</code>; the same facts as <code>--format json</code>.</footer>';
  return htmlPage('Rollout plan', body);
}
