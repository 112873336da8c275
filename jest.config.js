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
  testTimeout: 60000,
  maxWorkers: 2,
};
