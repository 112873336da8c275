/** One jest run over every package's test/ folder. Sources are transpiled by ts-jest
 * (type checking is `tsc -b`'s job); sibling packages resolve to their built lib/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/test'],
  testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
    // The ACP SDK is ES modules only (node requires them; jest's loader does not): its tests load it transpiled.
    '/node_modules/@agentclientprotocol/sdk/.+\\.js$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest-esm.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@agentclientprotocol/sdk/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/lib/'],
  modulePathIgnorePatterns: ['<rootDir>/packages/.*/lib/.*\\.test\\.'],
  // HOME and SLOTHTOOL_HOME name a stand-in home for the whole run; writing into it fails the run.
  globalSetup: '<rootDir>/scripts/jest-home.js',
  globalTeardown: '<rootDir>/scripts/jest-home-teardown.js',
  setupFilesAfterEnv: ['<rootDir>/scripts/jest-home-watch.js'],
  testTimeout: 60000,
  maxWorkers: 2,
};
