import { imageMatchesRegistry } from '../../k8s/image';
import { jsonPath } from '../helpers';
import { defineRule, RuleCategory, RuleFinding, Severity } from '../types';

/** Images must come from a configured registry (when a registry allowlist is configured). */
export const imageRegistryNotAllowed = defineRule({
  id: 'image-registry-not-allowed',
  severity: Severity.ERROR,
  category: RuleCategory.RELIABILITY,
  title: 'Image registry not on the configured allowlist',
  rationale:
    'Node services run with host access on every node, so their images should come only from registries the platform trusts and mirrors (PRACTICES P8). Prefixes match on a path boundary (`registry.example.com` does not admit `registry.example.com.evil.io`), and images are read as container runtimes (and the admission policies) read them: without a registry host they are `docker.io/<repository>`, a one-element name is `docker.io/library/<name>` (so `docker.io/flannel` does not admit the `flannel` library image), and a first element with upper-case letters is a host. Applies only when `imageRegistries` is configured.',
  fix: 'Pull the image through an allowed registry (mirror it), or add the registry to `imageRegistries`.',
  example: 'imageRegistries: [registry.example.com/, quay.io/prometheus/]\n...\nimage: registry.example.com/fluent/fluent-bit:3.0.7',
  check(_object, { view, config }) {
    if (config.imageRegistries.length === 0) return [];
    const out: RuleFinding[] = [];
    for (const c of view.containers) {
      const image = c.container.image;
      if (typeof image !== 'string' || image === '') continue;
      if (!imageMatchesRegistry(image, config.imageRegistries)) {
        out.push({
          path: jsonPath(c.path, 'image'),
          message: `container '${c.name}' image '${image}' is not from an allowed registry (${config.imageRegistries.join(', ')})`,
        });
      }
    }
    return out;
  },
});
