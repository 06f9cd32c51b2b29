// Preloaded by bench/measure.ts (`NODE_OPTIONS=--require bench/peak-rss.js`): when this Node.js process exits it
// appends its argv and peak resident set size, as one JSON line, to the file named by BENCH_PEAK_RSS_FILE.
'use strict';
const fs = require('fs');

const file = process.env.BENCH_PEAK_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const line = JSON.stringify({ argv: process.argv.slice(1), peakRssBytes: process.resourceUsage().maxRSS * 1024 });
    fs.appendFileSync(file, `${line}\n`);
  });
}
