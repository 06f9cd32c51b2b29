/**
 * The error of the library's API misuse: a construct's props or a function's arguments that cannot be used. Each
 * problem names the field as written, the value as given, what is wrong and the fix. Pure (no construct, no cdk8s), so
 * that every layer of the library reports misuse in one format.
 */

import { renderValue } from './json';
import { ErrorProblem, NodeServicesError, NodeServicesErrorCode } from './node-services-error';

/** One problem with a construct's props (what is wrong is its `problem`). */
export interface PropProblem extends ErrorProblem {
  /** The prop, with its position (e.g. `containers[0].image`). */
  readonly field: string;
  /** The offending value, rendered for humans. */
  readonly value: string;
  /** How to fix it. */
  readonly fix: string;
}

/**
 * The problems of a construct's props (reported at synthesis, and thrown when reading an object the construct did not
 * build) or of a function's arguments (thrown by the call); lists every problem found. Printed uncaught (e.g. by
 * `cdk8s synth`), it shows its message only: the problems are in the message, the stack is not shown.
 * Its `code` is `INVALID_PROPS` (a construct's props) or `INVALID_ARGUMENTS` (a function's arguments).
 * It extends the built-in `Error`, which jsii cannot model: other languages receive the message.
 *
 * @jsii ignore
 */
export class NodeServiceError extends NodeServicesError {
  /** The construct path of the construct that rejected its props. */
  declare public readonly constructPath: string;
  /** Every problem found. */
  declare public readonly problems: PropProblem[];

  /**
   * @param constructPath the construct path (or, for a function's arguments, the function: `Toleration.equal`)
   * @param problems every problem found
   * @param subject what was invalid: `props` (a construct's) or `arguments` (a function's)
   */
  constructor(constructPath: string, problems: PropProblem[], subject: string = 'props') {
    super(
      subject === 'arguments' ? NodeServicesErrorCode.INVALID_ARGUMENTS : NodeServicesErrorCode.INVALID_PROPS,
      `[${constructPath}] ${problemList(subject, problems, '  ')}`,
      problems,
    );
    // Own fields are not enumerable, so that Node's printing of an uncaught error does not repeat them after the message.
    Object.defineProperty(this, 'name', { value: 'NodeServiceError', enumerable: false, writable: true, configurable: true });
    Object.defineProperty(this, 'constructPath', { value: constructPath, enumerable: false });
    // Printed uncaught, the stack would point into the library, not at the mistake; the message says where the mistake is.
    Object.defineProperty(this, 'stack', {
      value: `NodeServiceError: ${this.message}`,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }

  /** How `util.inspect` (and so an uncaught error) prints the error: its message. */
  public [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `${this.name}: ${this.message}`;
  }
}

/** `invalid props (2 problems):` and one line per problem, each indented by `indent`. */
export function problemList(subject: string, problems: readonly PropProblem[], indent: string): string {
  const lines = problems.map((p) => `${indent}- ${p.field} = ${p.value}: ${p.problem}. Fix: ${p.fix}`);
  return `invalid ${subject} (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`;
}

/** Renders a prop value for an error message, faithfully (`NaN`, `Infinity`, `undefined`, `2147483648`). */
export function show(value: unknown): string {
  const text = renderValue(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
