export { createTempHome, packageDir } from './temp-home';
export type { TempHome, TempHomeOptions } from './temp-home';
