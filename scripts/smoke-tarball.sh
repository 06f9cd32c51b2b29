#!/usr/bin/env bash
# Tarball smoke test: pack the library, install the tarball into a fresh project with only its peer dependencies,
# then (a) import it from TypeScript and synthesize a chart with every preset, (b) run the node-services bin (lint and
# coverage) on the result. Catches missing files, wrong `exports`, and imports of dev-only packages.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$root"
# `npm pack` builds the package from a clean lib/ itself (prepack).
tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $tarball ($(du -k "$work/$tarball" | cut -f1) KiB)"

# What the tarball ships: the CLI bundle carries the license notices of the packages it inlines, and every relative
# link of the shipped Markdown resolves inside the package.
pkgdir="$work/unpacked"
mkdir -p "$pkgdir"
tar -xzf "$work/$tarball" -C "$pkgdir"
for dep in js-yaml commander; do
  grep -q "^$dep@[0-9.]* (" "$pkgdir/package/lib/cli/node-services.js" || { echo "CLI bundle lacks the license notice of $dep" >&2; exit 1; }
done
node -e '
const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const p = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
if (a.schema !== "jsii/0.10.0" || a.name !== p.name || a.version !== p.version) { console.error("the tarball has no jsii assembly of this package"); process.exit(1); }
for (const t of ["python", "java", "dotnet", "go"]) if (!a.targets || !a.targets[t]) { console.error(`the jsii assembly has no ${t} target`); process.exit(1); }
console.log(`jsii assembly: ${Object.keys(a.types).length} types`);
' "$pkgdir/package/.jsii" "$pkgdir/package/package.json"
[ ! -e "$pkgdir/package/lib/cli/main.js" ] || { echo "the tarball ships the unbundled CLI (lib/cli/main.js)" >&2; exit 1; }
[ -z "$(find "$pkgdir/package" -name '*.cache')" ] || { echo "the tarball ships a V8 code cache (it belongs to the machine that wrote it)" >&2; exit 1; }
[ -f "$pkgdir/package/lib/code-cache.js" ] && [ -f "$pkgdir/package/lib/library.js" ] || { echo "the tarball lacks the library bundle or its loader (lib/library.js, lib/code-cache.js)" >&2; exit 1; }
node -e '
const fs = require("fs"), path = require("path");
const dir = process.argv[1];
let bad = 0;
for (const doc of ["README.md", ...fs.readdirSync(path.join(dir, "docs")).map((f) => "docs/" + f)]) {
  const text = fs.readFileSync(path.join(dir, doc), "utf8").replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(m[1])) continue;
    const target = path.join(dir, path.dirname(doc), m[1].split("#")[0]);
    if (!fs.existsSync(target)) { console.error(`${doc}: link to ${m[1]} does not resolve in the package`); bad++; }
  }
}
process.exit(bad ? 1 : 0);
' "$pkgdir/package"

peer() { node -p "require('$root/node_modules/$1/package.json').version"; }
mkdir -p "$work/app"
cd "$work/app"
cat > package.json <<JSON
{ "name": "smoke-app", "version": "1.0.0", "private": true }
JSON
npm install --no-audit --no-fund --prefer-offline --loglevel=error \
  "$work/$tarball" "cdk8s@$(peer cdk8s)" "cdk8s-plus-28@$(peer cdk8s-plus-28)" "constructs@$(peer constructs)"

cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true, "esModuleInterop": true, "skipLibCheck": false,
  "types": [], "outDir": "out" }, "files": ["main.ts"] }
JSON
cat > main.ts <<'TS'
import { App, Chart } from 'cdk8s';
import {
  CniPlugin, CsiNode, GpuMonitor, LogAgent, MonitoringAgent, NodePool, NodeServiceAlerts, NodeServiceGuardrails,
  NodeServiceNamespace, SecurityAgent,
} from 'cdk8s-node-services';

const app = new App({ outdir: 'dist' });
const guardrails = new Chart(app, 'guardrails');
new NodeServiceNamespace(guardrails, 'ns', {});
new NodeServiceGuardrails(guardrails, 'admission', { contact: '#platform', platformGroups: ['platform-admins'] });
const chart = new Chart(app, 'agents', { namespace: 'node-services' });
const logs = new LogAgent(chart, 'logs', { image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9', pools: [NodePool.all(), NodePool.controlPlane()] });
new MonitoringAgent(chart, 'metrics', { image: 'quay.io/prometheus/node-exporter:v1.8.2' });
new CniPlugin(chart, 'cni', { image: 'docker.io/flannel/flannel:v0.25.6', healthPort: 8081,
  install: { image: 'docker.io/flannel/flannel-cni-plugin:v1.5.1-flannel2', command: ['sh', '-c', 'true'] } });
new CsiNode(chart, 'csi', { driverName: 'ebs.csi.aws.com', image: 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.46.0' });
new SecurityAgent(chart, 'security', { image: 'docker.io/falcosecurity/falco:0.44.1' });
new GpuMonitor(chart, 'gpu', { image: 'nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-distroless', pools: [NodePool.gpu()] });
new NodeServiceAlerts(chart, 'alerts', { services: [logs] });
chart.addDependency(guardrails);
app.synth();
TS
node "$root/node_modules/typescript/bin/tsc" -p .
node out/main.js
count="$(cat dist/*.yaml | grep -c '^kind: DaemonSet$')"
echo "synthesized $count DaemonSets"
[ "$count" -eq 6 ] || { echo "expected 6 DaemonSets, got $count" >&2; exit 1; }
# An ES module imports the package by name, too (Node.js reads the names from the text of its CommonJS index).
node --input-type=module -e "import { LogAgent, NodePool } from 'cdk8s-node-services'; if (typeof LogAgent !== 'function' || typeof NodePool.all !== 'function') process.exit(1);" \
  || { echo "an ES module cannot import the package's named exports" >&2; exit 1; }

# The bin: lint must pass on the synthesized output; coverage must explain the nodes.
npx --no-install node-services --version
npx --no-install node-services lint dist/
cat > nodes.json <<'JSON'
{ "apiVersion": "v1", "kind": "NodeList", "items": [
  { "metadata": { "name": "worker-1", "labels": { "kubernetes.io/os": "linux", "kubernetes.io/hostname": "worker-1" } },
    "status": { "allocatable": { "cpu": "4", "memory": "16Gi", "pods": "110" } } },
  { "metadata": { "name": "gpu-1", "labels": { "kubernetes.io/os": "linux", "nvidia.com/gpu.present": "true" } },
    "spec": { "taints": [ { "key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule" } ] },
    "status": { "allocatable": { "cpu": "8", "memory": "64Gi", "pods": "110", "nvidia.com/gpu": "4" } } } ] }
JSON
npx --no-install node-services coverage --nodes nodes.json dist/
npx --no-install node-services coverage --nodes nodes.json --output json dist/ > coverage.json
node -e "const r=require('./coverage.json'); if (r.nodes!==2 || r.workloads.length!==6) { console.error('unexpected coverage report'); process.exit(1) }"
# A broken manifest (privileged beside allowPrivilegeEscalation: false, which the API server rejects) must fail lint
# with exit code 1.
sed '0,/privileged: false/s//privileged: true/' dist/0001-agents.k8s.yaml > broken.yaml
set +e
npx --no-install node-services lint broken.yaml > lint-broken.txt
status=$?
set -e
if [ "$status" -ne 1 ]; then echo "lint of a broken manifest exited $status, expected 1" >&2; cat lint-broken.txt >&2; exit 1; fi
grep -q 'privileged' lint-broken.txt
echo "tarball smoke test passed"
