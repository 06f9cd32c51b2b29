/**
 * What each command refuses (the input contract of `manifests/`, catalogued in docs/input-contract.md), as its
 * `--help` lists it, and the refusals the commands share.
 */

import { InputError } from '../manifests';
import { kindsOf, nothingToCheck } from '../manifests/contract';

/** The commands whose help lists their refusals. */
export type CommandName = 'lint' | 'coverage' | 'diff' | 'plan';

const LISTS =
  '  --nodes, --pods: an empty file (0 bytes, only whitespace or comments), a kubectl get table (save the list with\n' +
  '    -o json), values that are not objects, objects or lists of another kind, a node or pod without a name, a node\n' +
  '    or pod listed twice\n';

function manifests(command: CommandName): string {
  const clusters = command === 'diff' ? 'diff --clusters OLD/clusters NEW/clusters' : `${command} --clusters DIR/clusters`;
  const oneCluster =
    command === 'lint'
      ? ''
      : `,\n    a fleet's folder (cluster folders inside, e.g. dist/: use ${clusters}), the same object twice,\n` +
        `    a DaemonSet without a pod template${command === 'diff' ? '' : ', a value of the wrong JSON type (hostNetwork: "true")'}`;
  return (
    '  manifests: a missing, unreadable or binary file, malformed YAML or JSON, an unrendered Helm template, a named\n' +
    '    file (or standard input) that is empty or holds no Kubernetes object, a kubectl get table, Node objects' +
    `${oneCluster}\n`
  );
}

const GATES: Record<CommandName, string> = {
  lint: 'inputs without a DaemonSet (lint gives no verdict over none)',
  coverage: '--fail-on-missing or --fail-on-budget over zero nodes or zero DaemonSets',
  diff: '--fail-on over inputs without a DaemonSet',
  plan: '--fail-on-stuck over zero nodes or zero DaemonSets',
};

/** The "Refused input" section of a command's `--help`. */
export function refusalsHelp(command: CommandName): string {
  const lists = command === 'lint' ? '' : LISTS;
  const empty =
    command === 'lint'
      ? 'An empty file found in a folder is a chart without objects (cdk8s writes one) and is skipped; a fleet folder is\n' +
        'checked cluster by cluster.\n'
      : 'An empty list ({"kind": "List", "items": []}) is a valid, empty answer; an empty file found in a folder is a chart\n' +
        'without objects (cdk8s writes one).\n';
  return (
    '\nRefused input (exit 2, one message: the input, what was expected, the fix; docs/input-contract.md):\n' +
    `${lists}${manifests(command)}` +
    `  nothing to check: ${GATES[command]}\n` +
    empty
  );
}

/** Refuses two inputs that both read standard input (each given as its name and its value). */
export function checkStdin(uses: ReadonlyArray<readonly [string, string | undefined]>): void {
  const users = uses.filter(([, value]) => value === '-').map(([name]) => name);
  if (users.length > 1) {
    throw new InputError(`standard input (-) can be read only once, but ${users.join(' and ')} both use it; save one of them to a file`);
  }
}

/** A gate over inputs without any DaemonSet is refused: nothing to check (`where` names the inputs, `of` the cluster). */
export function requireDaemonSet(objects: readonly unknown[], where: string, gate: string, of: string): void {
  if (objects.some((o) => (o as { kind?: unknown } | undefined)?.kind === 'DaemonSet')) return;
  throw nothingToCheck(`${of}no DaemonSet in ${where} (${kindsOf(objects)})`, gate);
}
