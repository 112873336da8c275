'use strict';
// jest.config.js globalTeardown: the run fails when a test wrote into the stand-in SlothTool home
// (scripts/jest-home.js says why).
const { teardown, writtenError } = require('./jest-home');

module.exports = async function globalTeardown() {
  const found = teardown(globalThis.__slothtoolJestHome);
  globalThis.__slothtoolJestHome = undefined;
  if (found.written.length) throw writtenError(found);
};
