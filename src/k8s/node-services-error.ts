/**
 * The base of every error the library and the `node-services` CLI throw: catch `NodeServicesError` to catch them all,
 * and tell them apart by their stable `code` (see docs/errors.md). Pure (no construct, no cdk8s).
 */

/**
 * What an error of the library is about; each error class has one code, which stays the same across versions (a
 * message may be reworded, a code is not).
 */
export enum NodeServicesErrorCode {
  /** A construct's props cannot be used (`NodeServiceError`, reported at synthesis or thrown by reading its objects). */
  INVALID_PROPS = 'INVALID_PROPS',
  /** A function's or method's arguments cannot be used (`NodeServiceError`, thrown by the call). */
  INVALID_ARGUMENTS = 'INVALID_ARGUMENTS',
  /** A rule configuration cannot be used: unknown rule id or level, a locked rule weakened (`PolicyConfigError`). */
  INVALID_POLICY_CONFIG = 'INVALID_POLICY_CONFIG',
  /** An input (manifests, nodes, pods, a flag's value) cannot be read, parsed or used (`InputError`). */
  INVALID_INPUT = 'INVALID_INPUT',
  /** A node or pod list is malformed where the streaming reader parses it (`NodeStreamError`). */
  MALFORMED_STREAM = 'MALFORMED_STREAM',
  /**
   * The coverage analysis was asked to judge DaemonSets before the API-validity judge of the rule catalogue was loaded
   * (`ApiValidatorMissingError`; only a caller importing internal modules alone meets it: the package loads the judge).
   */
  API_VALIDATOR_MISSING = 'API_VALIDATOR_MISSING',
}

/** One problem an error lists. */
export interface ErrorProblem {
  /** What is wrong (errors with more structure, such as `PropProblem`, add where and the fix beside it). */
  readonly problem: string;
}

/**
 * The base class of every error of the library and the CLI: `NodeServiceError`, `PolicyConfigError`, `InputError`
 * and `NodeStreamError` extend it. `code` says which one it is (a {@link NodeServicesErrorCode}), `problems` lists
 * every problem found; the message lists them too, for humans.
 * It extends the built-in `Error`, which jsii cannot model: other languages receive the message.
 *
 * @jsii ignore
 */
export abstract class NodeServicesError extends Error {
  /** What the error is about; stable across versions. */
  declare public readonly code: NodeServicesErrorCode;
  /** Every problem found. */
  declare public readonly problems: readonly ErrorProblem[];

  /**
   * @param code what the error is about
   * @param message the message, listing every problem
   * @param problems every problem found
   */
  protected constructor(code: NodeServicesErrorCode, message: string, problems: readonly ErrorProblem[]) {
    super(message);
    // Not enumerable, so that Node's printing of an uncaught error shows what it showed before these fields existed.
    Object.defineProperty(this, 'code', { value: code, enumerable: false });
    Object.defineProperty(this, 'problems', { value: problems, enumerable: false });
  }
}

/**
 * The problems a message lists: one per `  - ` line under a first line ending in `:` (`3 problems with the input:`),
 * or the message itself.
 */
export function listedProblems(message: string): ErrorProblem[] {
  const [head, ...rest] = message.split('\n');
  const items = rest.filter((l) => l.startsWith('  - ')).map((l) => ({ problem: l.slice(4) }));
  return head.endsWith(':') && items.length > 0 ? items : [{ problem: message }];
}
