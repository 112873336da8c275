'use strict';
// Runs verdaccio's own CLI in this process (so the pid the parent holds is the server's) and
// exits when standard input closes: the parent holds the other end of that pipe, so however
// the parent ends (stop(), a crash, SIGKILL of the test runner), the server goes with it.
//   node serve.js <verdaccio bin> [verdaccio args...]
const bin = process.argv[2];
process.argv.splice(1, 2, bin);
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
require(bin);
