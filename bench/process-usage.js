// Preloaded by bench/measure.ts (`NODE_OPTIONS=--require bench/process-usage.js`): when this Node.js process exits
// it appends its argv, peak resident set size and CPU time (user + system, all threads), as one JSON line, to the
// file named by BENCH_USAGE_FILE.
'use strict';
const fs = require('fs');

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const line = JSON.stringify({
      argv: process.argv.slice(1),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
    fs.appendFileSync(file, `${line}\n`);
  });
}
