#!/usr/bin/env bash
# A new cdk8s app in a minute, as the README's "A new app in a minute" says: from an empty folder, install the packed
# tarball with its peers, cdk8s-cli and tsx, write cdk8s.yaml (app: npx tsx main.ts) and the README's example as
# main.ts, run `npx cdk8s synth`, and check the YAML. Prints the time from the empty folder to the YAML.
#
#   bash scripts/new-app-smoke.sh [TARBALL]    # without TARBALL, packs this checkout first (npm pack)
#
# Dependencies come from the npm cache when they are there (--prefer-offline), at the versions this checkout's lock
# file installs, so a warm cache needs no network.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ "$#" -ge 1 ]; then
  tarball="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
else
  # jsii's notice that Node.js 20 is past its end of life is not about this code.
  (cd "$root" && JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=1 npm pack --silent --pack-destination "$work" > "$work/packed")
  tarball="$work/$(tail -n 1 "$work/packed")"
fi
version() { node -p "require('$root/node_modules/$1/package.json').version"; }

# The README's example, as pasted (the first ts block of the README).
node -e '
const text = require("fs").readFileSync(process.argv[1], "utf8");
const m = /```ts\n([\s\S]*?)```/.exec(text);
if (!m || !m[1].includes("app.synth()")) { console.error("the README has no complete ts example"); process.exit(1); }
require("fs").writeFileSync(process.argv[2], m[1]);
' "$root/README.md" "$work/main.ts"

start="$(date +%s.%N)"
mkdir "$work/node-agents"
cd "$work/node-agents"
npm init -y > /dev/null
npm install --prefer-offline --no-audit --no-fund --loglevel=error \
  "$tarball" "cdk8s@$(version cdk8s)" "constructs@$(version constructs)" "cdk8s-plus-28@$(version cdk8s-plus-28)"
npm install -D --prefer-offline --no-audit --no-fund --loglevel=error "cdk8s-cli@$(version cdk8s-cli)" "tsx@$(version tsx)"
printf 'language: typescript\napp: npx tsx main.ts\n' > cdk8s.yaml
cp "$work/main.ts" main.ts
CDK8S_CHECK_UPGRADE=false npx --no-install cdk8s synth --no-check-upgrade > synth.log 2>&1 || { cat synth.log >&2; exit 1; }
end="$(date +%s.%N)"

yaml=dist/node-agents.k8s.yaml
[ -s "$yaml" ] || { echo "no $yaml written" >&2; cat synth.log >&2; exit 1; }
count="$(grep -c '^kind: DaemonSet$' "$yaml")"
[ "$count" -eq 3 ] || { echo "expected 3 DaemonSets in $yaml, got $count" >&2; exit 1; }
if grep -qi 'warn' synth.log; then echo "cdk8s synth printed a warning:" >&2; cat synth.log >&2; exit 1; fi
node -e 'console.log(`new app: empty folder to YAML in ${(process.argv[2] - process.argv[1]).toFixed(1)} s (${process.argv[3]} DaemonSets in ${process.argv[4]})`)' "$start" "$end" "$count" "$yaml"
