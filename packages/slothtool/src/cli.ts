import { VERSION } from './index';

/** CLI entry: the only place that prints and sets the exit code. */
export function main(argv: string[]): void {
  if (argv[0] === '--version' || argv[0] === '-v') {
    process.stdout.write(VERSION + '\n');
    return;
  }
  process.stdout.write('usage: --version\n');
}
