/**
 * The part of a construct that problem reporting uses (its path and its validations), declared structurally so that
 * the pure modules depend on no construct library.
 */

/** What problem reporting needs of a construct: its path, and a way to add a validation run at synthesis. */
export interface IConstruct {
  /** The construct's tree node. */
  readonly node: {
    /** The construct path. */
    readonly path: string;
    /** Adds a validation that cdk8s runs at synthesis; the strings it returns are errors. */
    addValidation(validation: { validate(): string[] }): void;
  };
}
