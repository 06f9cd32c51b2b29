import { jsonPath, show } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Every container needs an image. */
export const containerImageMissing = defineRule({
  id: 'container-image-missing',
  severity: Severity.ERROR,
  category: RuleCategory.API_VALIDITY,
  title: 'Every container needs an image',
  rationale:
    'The API server rejects a pod template container without an image or with an empty one ("image: Required value"). A blank image (spaces only) is accepted, as a placeholder some tools replace, and reported as a warning: no node can pull it.',
  fix: 'Set `image` to a pinned reference such as `registry.example.com/agent:1.2.3`.',
  example: 'containers:\n  - name: agent\n    image: quay.io/prometheus/node-exporter:v1.8.2',
  check(_object, { view }) {
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const image = c.container.image;
      if (typeof image !== 'string' || image === '') {
        out.push({ path: jsonPath(c.path, 'image'), message: `container '${c.name}' has no image (image is ${show(image)})` });
      } else if (image.trim() === '') {
        // validateContainers checks only len(image) == 0 (a blank image is a placeholder some tools fill in later)
        out.push({
          path: jsonPath(c.path, 'image'),
          message: `container '${c.name}' has the blank image ${show(image)}: the API server accepts it, but no node can pull it`,
          severity: Severity.WARNING,
        });
      }
    }
    return out;
  },
});
