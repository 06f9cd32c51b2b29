import { imagePinErrorOf, jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Images must carry a tag other than `latest`, or a digest. */
export const imageNotPinned = defineRule({
  id: 'image-not-pinned',
  severity: Severity.ERROR,
  category: RuleCategory.RELIABILITY,
  title: 'Image not pinned (untagged or :latest)',
  rationale:
    'A DaemonSet pulls its image on every node, at different times (new nodes, evictions, restarts). With :latest or no tag, nodes silently run different versions and a rollback has nothing to roll back to (PRACTICES P6). This is a hard line (error).',
  fix: 'Use a version tag (`fluent-bit:3.0.7`) or a digest (`@sha256:…`), ideally both.',
  example: 'image: cr.fluentbit.io/fluent/fluent-bit:3.0.7',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const image = c.container.image;
      if (typeof image !== 'string' || image === '') continue;
      const err = imagePinErrorOf(image);
      if (err) out.push({ path: jsonPath(c.path, 'image'), message: `container '${c.name}' image '${image}' ${err}` });
    }
    return out;
  },
});
