/** Aligned, optionally coloured tables of the text coverage report. */

import { ChunkedOut } from './chunked-out';
import { CoverageStatus } from '../coverage/types';

/** The terminal colours of the text report. */
export const COLOURS = {
  bold: '\u001b[1m',
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  green: '\u001b[32m',
  dim: '\u001b[2m',
  reset: '\u001b[0m',
};

// The statuses as local constants: the loops over every node compare against them.
const EXCLUDED: string = CoverageStatus.EXCLUDED;
const RUNNING: string = CoverageStatus.RUNNING;

/** Paints text in a colour on a terminal (`tty`), else leaves it as it is. */
export function painter(tty: boolean): (code: string, text: string) => string {
  return (code, text) => (tty ? `${code}${text}${COLOURS.reset}` : text);
}

/** The colour of a node's status. */
function paintStatus(status: string): string {
  return status === RUNNING ? COLOURS.green : status === EXCLUDED ? COLOURS.yellow : COLOURS.red;
}

/** Writes rows as an aligned table (two spaces between columns, the last column unpadded), each line indented. */
export function writeTable(
  out: ChunkedOut,
  rows: readonly (readonly string[])[],
  colour: (row: number, column: number, text: string) => string,
  indent = '  ',
): void {
  const widths: number[] = rows[0].map(() => 0);
  for (const r of rows) for (let c = 0; c < r.length; c++) if (r[c].length > widths[c]) widths[c] = r[c].length;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let line = '';
    for (let c = 0; c < r.length; c++) line += (c > 0 ? '  ' : '') + colour(i, c, c === r.length - 1 ? r[c] : r[c].padEnd(widths[c]));
    out.write(`${indent}${line.trimEnd()}\n`);
  }
}

/** Writes a table whose first row is the header (dimmed) and whose column `STATUS` is painted by status. */
export function writeRows(out: ChunkedOut, rows: string[][], tty: boolean): void {
  const paint = painter(tty);
  const statusColumn = rows[0].indexOf('STATUS');
  writeTable(out, rows, (row, column, text) => {
    if (row === 0) return paint(COLOURS.dim, text);
    if (column === statusColumn) return paint(paintStatus(rows[row][column]), text);
    return text;
  });
}

/**
 * Writes a table like {@link writeRows} whose rows are a node cell followed by the cells of a node group's row
 * (`rest(group)`, the same for every node of the group; the status column is the first of them): each group's cells
 * are padded, painted and joined once.
 */
export function writeNodeTable(
  out: ChunkedOut,
  header: readonly string[],
  cells: readonly string[],
  rowGroups: readonly number[],
  rest: (group: number) => string[],
  tty: boolean,
): void {
  const paint = painter(tty);
  const restOf = new Map<number, string[]>();
  const widths = header.map((h) => h.length);
  for (let k = 0; k < cells.length; k++) {
    if (cells[k].length > widths[0]) widths[0] = cells[k].length;
    const g = rowGroups[k];
    if (restOf.has(g)) continue;
    const r = rest(g);
    restOf.set(g, r);
    for (let c = 0; c < r.length; c++) if (r[c].length > widths[c + 1]) widths[c + 1] = r[c].length;
  }
  const last = header.length - 1;
  const pad = (text: string, c: number) => (c === last ? text : text.padEnd(widths[c]));
  out.write(`  ${header.map((h, c) => paint(COLOURS.dim, pad(h, c))).join('  ')}`.trimEnd() + '\n');
  // Each group's cells after the node cell, painted, padded and joined (the line's end is always in them, so trimming
  // them trims the line).
  const suffixes = new Map<number, string>();
  for (const [g, r] of restOf) {
    let suffix = '';
    for (let c = 0; c < r.length; c++) suffix += `  ${c === 0 ? paint(paintStatus(r[c]), pad(r[c], c + 1)) : pad(r[c], c + 1)}`;
    suffixes.set(g, suffix.trimEnd());
  }
  for (let k = 0; k < cells.length; k++) out.write(`  ${cells[k].padEnd(widths[0])}${suffixes.get(rowGroups[k])}\n`);
}
