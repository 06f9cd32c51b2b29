import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');

/** The Markdown documents users read: in the repository and (all but CHANGELOG's history) in the package. */
const DOCUMENTS = ['README.md', 'CHANGELOG.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

interface Link {
  readonly document: string;
  readonly target: string;
  readonly anchor?: string;
}

/** Relative links of a Markdown document (`[text](target)`, not in code), resolved against the repository root. */
function relativeLinks(document: string): Link[] {
  const text = fs
    .readFileSync(path.join(ROOT, document), 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  const links: Link[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // https:, mailto:, …
    const [file, anchor] = href.split('#', 2);
    const target = file === '' ? document : path.posix.normalize(path.posix.join(path.posix.dirname(document), file));
    links.push({ document, target, anchor: anchor || undefined });
  }
  return links;
}

/** Files `npm pack` would put in the tarball (without running the build). */
function packagedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  const [pack] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set(pack.files.map((f) => f.path));
}

const links = DOCUMENTS.flatMap(relativeLinks);

describe('documentation links', () => {
  test('GIVEN the README and docs THEN they have relative links to check', () => {
    expect(links.filter((l) => l.document === 'README.md').length).toBeGreaterThanOrEqual(5);
  });

  test('GIVEN every relative link THEN its target exists in the repository', () => {
    const missing = links.filter((l) => !fs.existsSync(path.join(ROOT, l.target))).map((l) => `${l.document} → ${l.target}`);
    expect(missing).toEqual([]);
  });

  test('GIVEN every link with an anchor into a Markdown file THEN the anchor exists there', () => {
    const slug = (heading: string): string =>
      heading
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, '')
        .replace(/\s/g, '-');
    const missing = links
      .filter((l) => l.anchor !== undefined && l.target.endsWith('.md') && fs.existsSync(path.join(ROOT, l.target)))
      .filter((l) => {
        const text = fs.readFileSync(path.join(ROOT, l.target), 'utf8');
        const ids = new Set([
          ...[...text.matchAll(/id="([^"]+)"/g)].map((m) => m[1]),
          ...[...text.matchAll(/^#+\s+(.*)$/gm)].map((m) => slug(m[1])),
        ]);
        return !ids.has(l.anchor!);
      })
      .map((l) => `${l.document} → ${l.target}#${l.anchor}`);
    expect(missing).toEqual([]);
  });

  test('GIVEN the links of the documents the package ships THEN their targets are in the package too', () => {
    const files = packagedFiles();
    expect(files.has('README.md')).toBe(true);
    const shipped = links.filter((l) => files.has(l.document));
    expect(shipped.length).toBeGreaterThan(0);
    const missing = shipped
      .filter((l) => !files.has(l.target) && ![...files].some((f) => f.startsWith(`${l.target.replace(/\/$/, '')}/`)))
      .map((l) => `${l.document} → ${l.target}`);
    expect(missing).toEqual([]);
  }, 30_000);

  test('GIVEN the README THEN every practice it cites links to docs/practices.md', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const unlinked = [...readme.matchAll(/(?<!\[)\bP(1[0-3]|[1-9])\b(?!\])/g)].map((m) => m[0]);
    expect(unlinked).toEqual([]);
    const practices = fs.readFileSync(path.join(ROOT, 'docs', 'practices.md'), 'utf8');
    for (let n = 1; n <= 13; n++) expect(practices).toContain(`id="p${n}"`);
  });
});
