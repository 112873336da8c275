import { VERSION } from '../src/index';
test('version comes from package.json', () => {
  expect(VERSION).toBe(require('../package.json').version);
});
