'use strict';
// jest.config.js setupFilesAfterEnv: names the test files that were running when something
// appeared in the stand-in SlothTool home (scripts/jest-home.js), for the run's failure message.
// One folder listing before and after each file; with several workers, a file running beside the
// one that wrote is named too.
const fs = require('fs');
const path = require('path');
const { listTree } = require('./jest-home');

const base = process.env.SLOTHTOOL_JEST_HOME;
if (base) {
  const stand = path.join(base, 'home', '.slothtool');
  let before = '';
  beforeAll(() => {
    before = listTree(stand).join('\n');
  });
  afterAll(() => {
    if (listTree(stand).join('\n') !== before) fs.appendFileSync(path.join(base, 'writers'), `${expect.getState().testPath}\n`);
  });
}
