/** doctor's and probe's reports as the CLI prints them (`--json` prints the report itself). */
import type { CliIo } from './cli-io';
import type { DoctorReport } from './doctor';
import { t, type Lang } from './i18n';
import * as api from './index';
import type { ProbeReport } from './probe';
import { effectiveTransport } from './transport';

export function printDoctor(report: DoctorReport, io: CliIo, lang: Lang): void {
  const list = api.list_profiles();
  const url = report.profile && list.success ? (list.data.profiles[report.profile]?.base_url ?? '') : '';
  io.stdout(t(lang, 'doctorHeader', { name: report.profile ?? '-', url: url || '-' }) + '\n');
  for (const c of report.checks) {
    const mark = c.ok ? '✓' : c.skipped ? '-' : '✗';
    io.stdout(`  ${mark} ${c.id.padEnd(9)} ${c.message}\n`);
    if (c.fix) io.stdout(`      → ${c.fix}\n`);
  }
  const tr = report.transport;
  if (tr) {
    const c = tr.capabilities;
    const how = c
      ? t(lang, 'transportProbed', { at: c.probed_at.slice(0, 10), tools: c.tools ? '✓' : '✗', schema: c.json_schema ? '✓' : '✗' })
      : t(lang, 'transportNotProbed', { name: report.profile ?? '' });
    io.stdout(`  · ${t(lang, 'chkTransport', { transport: tr.setting === 'auto' ? `auto → ${tr.effective}` : tr.effective, how })}\n`);
  }
  io.stdout((report.ok ? t(lang, 'doctorOk') : t(lang, 'doctorFailed')) + '\n');
}

export function printProbe(report: ProbeReport, io: CliIo, lang: Lang): void {
  io.stdout(t(lang, 'probeHeader', { name: report.profile, model: report.model }) + '\n');
  for (const id of ['tools', 'json_schema', 'json_object', 'vision'] as const)
    io.stdout(`  ${report[id].ok ? '✓' : '✗'} ${id.padEnd(11)} ${report[id].detail}\n`);
  io.stdout(t(lang, 'probeAuto', { transport: effectiveTransport({ transport: 'auto', capabilities: report.capabilities }) }) + '\n');
}
