/**
 * Building blocks of the self-contained HTML reports (`--output html`): escaping and the page around a report. A page
 * has its CSS inline and no script, font, image or other resource to load, so it reads offline and can be attached
 * to a CI run. Imports neither cdk8s nor cdk8s-plus.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and (double- or single-quoted) attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** `0 nodes`, `1 node`, `2 nodes`: a count and its noun in the number that agrees (`pluralWord` when not `word` + s). */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${count} ${count === 1 ? word : pluralWord}`;
}

/** The form of a word that agrees with a count: `singular` for 1, else `pluralForm` (`has`/`have`, `is`/`are`). */
export function agree(count: number, singular: string, pluralForm: string): string {
  return count === 1 ? singular : pluralForm;
}

/** A sentence's text with its first letter in upper case (`the pod template differs` → `The pod template differs`). */
export function sentence(text: string): string {
  return text.length > 0 ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Up to `limit` names, then `and N more`, escaped. */
export function sampleNames(names: readonly string[], total: number, limit: number): string {
  const shown = names.slice(0, limit).map((n) => `<code>${escapeHtml(n)}</code>`);
  const more = total - Math.min(names.length, limit);
  return shown.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/** Colours of report segments, one per service in turn; distinguishable and printed next to their names. */
export const PALETTE = ['#3b6fb6', '#e08a1e', '#3c9a5f', '#b8475a', '#7a5fb0', '#2a9bb0', '#a6762b', '#d062a6', '#5c7a2e', '#6b6b6b'];

// The node-tax and detail parts of a report, and each pool's and cell's section in them, are laid out and painted only
// when they come into view (`content-visibility: auto`, with a remembered size estimate), so a fleet-sized report loads about as fast as a
// small one; find-in-page, anchors and printing still reach them.
const CSS = `
:root{color-scheme:light;--ok:#1f7a3d;--ok-bg:#e3f4e8;--warn:#8a5a00;--warn-bg:#fff3d6;--bad:#a4161a;--bad-bg:#fde4e4;--muted:#5b6270}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:24px 32px;color:#1c1f24;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d8dce3;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}
p.lead{color:var(--muted);margin:0 0 12px}
table{border-collapse:collapse;margin:6px 0 12px}caption{text-align:left;font-weight:600;padding:4px 0;color:#333}
th,td{border:1px solid #d8dce3;padding:4px 8px;vertical-align:top;text-align:left}thead th{background:#f1f3f6}
th[scope=row]{background:#f8f9fb;font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.cell{display:block;min-width:120px;text-decoration:none;color:inherit;border-radius:4px;padding:3px 6px;border-left:5px solid}
.cell:hover,.cell:focus{outline:2px solid #3b6fb6}
.cell span{display:block;white-space:nowrap}.verdict{font-weight:600}.cell .icon,.tag .icon{display:inline;font-weight:700}
.p-runs{background:var(--ok-bg);border-color:var(--ok)}
.p-none{background:#f3f4f6;border-color:#9aa1ac;border-left-style:dotted;color:var(--muted)}
.p-gap{background-color:var(--bad-bg);background-image:repeating-linear-gradient(135deg,transparent 0 7px,#f6c9c9 7px 10px);border-color:var(--bad);color:#6d0f12}
.tag.p-runs{color:var(--ok)}.tag.p-none{border:1px dotted #9aa1ac}.tag.p-gap{color:var(--bad);border:1px solid var(--bad)}
.scroll{max-width:100%;overflow-x:auto}
ul.legend{list-style:none;padding:0;margin:8px 0 12px}ul.legend li{display:flex;gap:10px;align-items:center;margin:3px 0}
ul.legend .cell{min-width:150px;flex:none}ul.legend .tag{flex:none;white-space:nowrap}.legend-wave{flex:none;min-width:110px;max-width:none}
.tag{display:inline-block;border-radius:3px;padding:0 5px;font-size:12px;font-weight:600}
.t-ok{background:var(--ok-bg);color:var(--ok)}.t-warn{background:var(--warn-bg);color:var(--warn)}.t-bad{background:var(--bad-bg);color:var(--bad)}
.bar{position:relative;display:flex;height:22px;width:100%;max-width:720px;background:#f1f3f6;border:1px solid #c9ced6;border-radius:3px;overflow:visible;margin:2px 0 14px}
.seg{height:100%;border-right:1px solid #fff}
.mark{position:absolute;top:-4px;bottom:-4px;border-left:2px dashed}.mark span{position:absolute;top:24px;left:2px;font-size:11px;white-space:nowrap}
.m-alloc{border-color:var(--bad)}.m-alloc span{color:var(--bad)}.m-budget{border-color:#1c1f24}
.swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.timeline{list-style:none;padding-left:0;display:flex;gap:3px;align-items:stretch;margin:6px 0 4px;max-width:100%;overflow-x:auto}
.wave{flex:1 1 0;min-width:70px;max-width:180px;background:#e6eef9;border:1px solid #3b6fb6;border-radius:3px;padding:3px 6px;font-size:12px}
.wave.stuck{background:var(--bad-bg);border:2px solid var(--bad);color:var(--bad);font-weight:600}
.wave.manual{background:var(--warn-bg);border-color:var(--warn)}
ul.groups{margin:4px 0 10px;padding-left:20px}ul.groups li{margin:2px 0}
section.detail{border-left:3px solid #d8dce3;padding-left:12px;margin:10px 0}
section.detail:target{border-color:#3b6fb6;background:#f5f8fd}
section.detail{content-visibility:auto;contain-intrinsic-size:auto 150px}section.pool{content-visibility:auto;contain-intrinsic-size:auto 420px}
section.deferred{content-visibility:auto}
footer{margin-top:32px;color:var(--muted);font-size:12px}
`;

/** The page around a report's body. */
export function htmlPage(title: string, body: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    // No resource of any kind may load: the report is read offline, attached to CI runs.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">\n` +
    `<title>${escapeHtml(title)}</title>\n<style>${CSS}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`
  );
}
