#!/usr/bin/env node
// Fails when the jsii assembly (.jsii, written by `npm run jsii`) has a union type in any public signature: jsii
// carries `number | string` to Java and C# as `Object` and to Python as a typing.Union that no IDE completes, so
// every "one of" choice is a class with static factories instead (IntOrPercent, Probe.httpGet / httpGetOnPort).
'use strict';
const fs = require('fs');
const path = require('path');

const file = path.join(__dirname, '..', '.jsii');
if (!fs.existsSync(file)) {
  console.error('.jsii not found: run `npm run jsii` first');
  process.exit(1);
}
const assembly = JSON.parse(fs.readFileSync(file, 'utf8'));
const unions = [];

function visit(node, where) {
  if (Array.isArray(node)) {
    node.forEach((n, i) => visit(n, `${where}[${i}]`));
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (node.union) unions.push(`${where}: ${JSON.stringify(node.union.types)}`);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'docs' || key === 'locationInModule') continue;
    visit(value, `${where}.${key}`);
  }
}

for (const [fqn, type] of Object.entries(assembly.types || {})) {
  for (const member of [...(type.properties || []), ...(type.methods || [])]) {
    visit(member, `${fqn}.${member.name}`);
  }
  if (type.initializer) visit(type.initializer, `${fqn}.<initializer>`);
}

if (unions.length > 0) {
  console.error(`union types in the public API (use a class with static factories):\n  ${unions.join('\n  ')}`);
  process.exit(1);
}
console.log(`jsii assembly: ${Object.keys(assembly.types || {}).length} types, no union types`);
