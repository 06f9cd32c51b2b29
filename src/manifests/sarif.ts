/**
 * The SARIF 2.1.0 log that `lint` and `diff` write for code scanning: one run of one tool, artifact locations as
 * relative URIs, regions from 1-based lines and columns. The commands differ only in their rules and results.
 */

/** A rule of the tool's driver (`tool.driver.rules[]`). */
export interface SarifRule {
  readonly id: string;
  readonly [field: string]: unknown;
}

/** The tool that wrote the log. */
export interface SarifDriver {
  readonly name: string;
  readonly version: string;
  readonly rules: readonly SarifRule[];
}

/** The URI of an input file as SARIF wants it (`-` is standard input). */
function sarifArtifactUri(file: string): string {
  if (file === '-') return 'stdin';
  return encodeURI(file.replace(/\\/g, '/')).replace(/#/g, '%23').replace(/\?/g, '%3F');
}

/** A physical location: the file, and the region when the line (and column) are known. */
export function sarifPhysicalLocation(file: string, line?: number, column?: number): any {
  const location: any = { artifactLocation: { uri: sarifArtifactUri(file) } };
  if (line !== undefined && line >= 1) location.region = column ? { startLine: line, startColumn: column } : { startLine: line };
  return location;
}

/** The log, serialized with a final newline. `invocations` is omitted when not given. */
export function sarifLog(driver: SarifDriver, results: readonly unknown[], invocations?: readonly unknown[]): string {
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: driver.name, semanticVersion: driver.version, version: driver.version, rules: driver.rules } },
        columnKind: 'utf16CodeUnits',
        ...(invocations ? { invocations } : {}),
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
