import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { createSandbox } from '../src';

/**
 * `describe` when the real bubblewrap works here, else `describe.skip` with a line saying so.
 * CI installs it (.ci/run): there a missing one fails instead.
 */
export function describeWithBwrap(): jest.Describe {
  const probeRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bwrap-probe-'));
  const available = createSandbox({ workspace: probeRoot, home: probeRoot, slothtoolHome: path.join(probeRoot, '.slothtool') }).status();
  fs.rmSync(probeRoot, { recursive: true, force: true });
  if (available.kind === 'bwrap') return describe;
  if (process.env.CI) {
    test('bubblewrap works in CI', () => {
      throw new Error(`the OS sandbox tests need bubblewrap, which .ci/run installs: ${available.reason}`);
    });
  } else {
    console.warn(`sandbox-bwrap tests skipped: ${available.reason}`);
  }
  return describe.skip;
}
