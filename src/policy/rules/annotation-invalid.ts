import { asObject, isObject, jsonPath, qualifiedNameErrorOf, show } from '../helpers';
import { SUPPRESSION_ANNOTATION_PREFIX } from '../../k8s/vocabulary';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** The API server's limit on the total size of an object's annotations (keys plus values), in bytes. */
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

function checkAnnotations(annotations: unknown, base: string, out: RuleFinding[]): void {
  if (annotations === undefined || annotations === null) return;
  if (!isObject(annotations)) {
    out.push({ path: base, message: `annotations must be a map (has ${show(annotations)})` });
    return;
  }
  let size = 0;
  for (const k of Object.keys(annotations)) {
    const v = annotations[k];
    const keyError = qualifiedNameErrorOf(k.toLowerCase());
    if (keyError) out.push({ path: jsonPath(base, k), message: `annotation key ${show(k)} ${keyError}` });
    if (typeof v !== 'string') out.push({ path: jsonPath(base, k), message: `annotation value must be a string (has ${show(v)})` });
    size += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : String(v));
  }
  if (size > MAX_ANNOTATIONS_BYTES) {
    out.push({ path: base, message: `annotations total ${size} bytes, more than the ${MAX_ANNOTATIONS_BYTES}-byte limit` });
  }
}

/** Annotation keys and the total annotation size on the DaemonSet and its pod template. */
export const annotationInvalid = defineRule({
  id: 'annotation-invalid',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Annotations must have valid keys, string values and fit in 256 KiB',
  rationale:
    'Annotation keys are qualified names (checked in lower case), values must be strings, and all annotations of an object together may not exceed 256 KiB.',
  fix: 'Use keys such as `example.com/owner`, quote non-string values, and move large data into a ConfigMap.',
  example: `metadata:\n  annotations:\n    ${SUPPRESSION_ANNOTATION_PREFIX}host-path-writable: "position database for tailed log files"`,
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    checkAnnotations(view.metadata.annotations, 'metadata.annotations', out);
    checkAnnotations(asObject(view.template.metadata).annotations, 'spec.template.metadata.annotations', out);
    return out;
  },
});
