/** Constants of the import shared by its modules. */

import { ANNOTATION_PREFIX } from '../k8s/vocabulary';

/** The library's label and annotation prefix, escaped for a regular expression. */
export const ANNOTATION_PREFIX_TEXT = ANNOTATION_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
