/**
 * Recognises the text tables `kubectl get` prints without `-o` (`NAME  STATUS  ROLES  AGE  VERSION`): a common
 * mistake when saving nodes or pods for the CLI. Such a table is not YAML objects (it reads as one long string), so
 * without this it would be reported as "not an object" at best, and read as nothing at worst.
 */

/** What a table's header shows it lists, and the command that prints the same as objects. */
export interface KubectlTable {
  /** 1-based line of the header. */
  readonly line: number;
  /** What the table lists (`nodes`, `pods`, `daemonsets`, or `objects` when the header does not tell). */
  readonly resource: string;
  /** The `kubectl get` command that prints the same list as JSON. */
  readonly command: string;
}

/** A header cell: upper-case words such as `NAME`, `UP-TO-DATE`, `NODE SELECTOR`, `OS-IMAGE`, `PORT(S)`. */
const HEADER = /^[A-Z][A-Z0-9-]*(\([A-Z]\))?(\s+[A-Z][A-Z0-9-]*(\([A-Z]\))?)+$/;

function resourceOf(cells: readonly string[]): { resource: string; command: string } {
  const has = (c: string) => cells.includes(c);
  if (has('ROLES') || (has('VERSION') && !has('NAMESPACE'))) return { resource: 'nodes', command: 'kubectl get nodes -o json' };
  if (has('RESTARTS')) return { resource: 'pods', command: 'kubectl get pods -A -o json' };
  if (has('DESIRED') && has('UP-TO-DATE')) return { resource: 'daemonsets', command: 'kubectl get daemonsets -A -o yaml' };
  return { resource: 'objects', command: 'kubectl get <kind> -o json' };
}

/**
 * The `kubectl get` table `text` starts with (its first line that is not blank), or undefined. A header is two or more
 * upper-case words, the first `NAME` or `NAMESPACE`, nothing else on the line: no YAML or JSON object starts so.
 */
export function kubectlTableAt(text: string): KubectlTable | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let at = 0;
  let line = 1;
  while (at < body.length) {
    const nl = body.indexOf('\n', at);
    const end = nl < 0 ? body.length : nl;
    const content = body.slice(at, end).trim();
    if (content !== '') {
      if (!HEADER.test(content)) return undefined;
      const cells = content.split(/\s+/);
      if (cells[0] !== 'NAME' && cells[0] !== 'NAMESPACE') return undefined;
      return { line, ...resourceOf(cells) };
    }
    if (nl < 0) break;
    at = nl + 1;
    line++;
  }
  return undefined;
}

/** `<resource>` as the table lists them, for messages: `a "kubectl get nodes" table`. */
export function describeTable(table: KubectlTable): string {
  return table.resource === 'objects' ? 'a table printed by kubectl get' : `a table printed by kubectl get ${table.resource}`;
}
