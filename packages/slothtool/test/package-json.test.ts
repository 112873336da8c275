import { firstBin, interactiveFlagOf, PluginPackageSchema } from '../src/package-json';

const parse = (pkg: unknown) => PluginPackageSchema.parse(pkg);

test.each([
  [{ name: 'a', bin: 'cli.js' }, 'cli.js'],
  [{ name: 'a', bin: { one: 'bin/one.js', two: 'bin/two.js' } }, 'bin/one.js'],
  [{ name: 'a', bin: {} }, undefined],
  [{ name: 'a', bin: '' }, undefined],
  [{ name: 'a' }, undefined],
])('firstBin(%j) = %j', (pkg, bin) => {
  expect(firstBin(parse(pkg))).toBe(bin);
});

test.each([
  [{ name: 'a', slothtool: { interactive: true, interactiveFlag: '--tui' } }, '--tui'],
  [{ name: 'a', slothtool: { interactive: true } }, '-i'],
  [{ name: 'a', slothtool: { interactive: false, interactiveFlag: '-i' } }, undefined],
  [{ name: 'a', slothtool: { interactive: 'yes' } }, undefined],
  [{ name: 'a', slothtool: 'interactive' }, undefined],
  [{ name: 'a' }, undefined],
])('interactiveFlagOf(%j) = %j', (pkg, flag) => {
  expect(interactiveFlagOf(parse(pkg))).toBe(flag);
});

test.each([[{}], [{ name: '' }], [{ name: 'a', bin: 3 }], [{ name: 'a', bin: { x: 1 } }]])('%j is not a plugin package.json', (pkg) => {
  expect(PluginPackageSchema.safeParse(pkg).success).toBe(false);
});
