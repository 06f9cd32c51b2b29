#!/usr/bin/env node
// Removes lib/ so that `npm pack` (prepack) builds the package from nothing: no stale file of an earlier build (a
// module since renamed or deleted) can reach the tarball.
'use strict';
const fs = require('fs');
const path = require('path');

fs.rmSync(path.join(__dirname, '..', 'lib'), { recursive: true, force: true });
