/**
 * Rows of table-driven tests (`test.each(rows)('$name', ...)`): each row says what it shows, the input as a user
 * writes it, and what is wanted back.
 */

/** One row of a table-driven test. */
export interface Row<Input, Want> {
  /** What the row shows; the test's title. */
  readonly name: string;
  /** The input, as the user writes it. */
  readonly input: Input;
  /** What the row wants back. */
  readonly want: Want;
}

/** A row whose input must be refused with an error containing each of the `want` texts. */
export type ErrorRow<Input> = Row<Input, readonly string[]>;
