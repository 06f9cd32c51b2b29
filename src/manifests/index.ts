/**
 * The manifest reader shared by the CLI and the cdk8s validation plugin: YAML 1.1 (kubectl's semantics) and JSON,
 * one document at a time, problems per file and document with `file:line:col`, and field positions for findings.
 * Imports neither cdk8s nor cdk8s-plus.
 */

export { DocumentSource, ReadDocument, ReadProblem, ReadProblemKind, describeProblem, readDocuments } from './documents';
export { FieldPosition, PathSegment, DocumentPositions, locateField, parsePath } from './positions';
export {
  InputError,
  MANIFEST_EXTENSIONS,
  ReadResult,
  SourcedObject,
  expandPaths,
  fieldPosition,
  parseManifests,
  parseObjects,
  readFileText,
  readManifests,
  readObjects,
  streamManifests,
  ManifestVisitor,
} from './read';
export { YAML_11_SCHEMA, yaml11Float, yaml11Int } from './yaml11';
export { CLUSTER_VERSION_FILE, readClusterVersion } from './cluster-version';
