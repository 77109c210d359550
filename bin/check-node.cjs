#!/usr/bin/env node
// The first thing `npm start`, `npm test`, `npm run worker` and `npm run bench` run (their pre-scripts):
// on a Node.js the service cannot run on, it prints one line (which version is needed, why this one
// will not do, the command that gets 24) and exits 1, before anything else fails in a less readable
// way. Silent on a supported Node.js. Plain CommonJS and ES5, so any old Node.js runs it.
// `npm install` itself refuses such a Node.js earlier, through `engines` and `engine-strict` (.npmrc);
// docs/OPERATIONS.md says why it cannot print this line first.
//   node bin/check-node.cjs            checks this Node.js
//   node bin/check-node.cjs v20.20.2   checks the version given (the tests)
/* global module, require */
'use strict';

/** package.json "engines": ">=22.18" (test/node-version.test.ts keeps the two equal). */
var MINIMUM = { major: 22, minor: 18 };

/** The one line for a Node.js that cannot run the service, or null when it can. */
function problem(version) {
  var m = /^v?(\d+)\.(\d+)\./.exec(String(version));
  if (!m) return null;
  var major = Number(m[1]);
  var minor = Number(m[2]);
  if (major > MINIMUM.major || (major === MINIMUM.major && minor >= MINIMUM.minor)) return null;
  // Every major before 22 is past its end of life (20, the last of them, since 30 April 2026).
  var why = major < MINIMUM.major ? 'is past its end of life' : 'is too old (22.18 is the oldest 22 that works)';
  return (
    'Node.js ' + version + ' ' + why + ': the Mind Simulation Service needs Node.js 24 (or 22.18 or later). ' +
    'Get 24 with: source .ci/use-node.sh 24   (or your version manager\'s, e.g. nvm install 24)'
  );
}

module.exports = { problem: problem, MINIMUM: MINIMUM };

if (require.main === module) {
  var line = problem(process.argv[2] || process.version);
  if (line) {
    process.stderr.write(line + '\n');
    process.exit(1);
  }
}
