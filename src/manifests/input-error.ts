/** The error of an input that cannot be used, apart from the readers so that throwing it loads none of them. */

import { listedProblems, NodeServicesError, NodeServicesErrorCode } from '../k8s/node-services-error';

/**
 * An input that could not be read, parsed or used (a file, a folder, standard input, a flag's value). Its `code` is
 * `INVALID_INPUT`; `problems` has one entry per problem the message lists.
 *
 * @jsii ignore
 */
export class InputError extends NodeServicesError {
  /** @param message what is wrong, with where (`file:line:col` when known) */
  constructor(message: string) {
    super(NodeServicesErrorCode.INVALID_INPUT, message, listedProblems(message));
    this.name = 'InputError';
  }
}
