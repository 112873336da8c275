/** Network tools and system administration commands. */
import { findLong, isInfoOnly, isLong, operands } from '../args';
import { finding, type Finding, type JudgeCtx } from '../finding';
import { judgeCommand } from '../programs';
import { execArg, readOnly, writeFile, type Handler } from './common';

export function judgeNetworkTool(execFlags: string[] = []): Handler {
  return (args, name) => {
    const bad = args.find(
      (a) => execFlags.some((f) => a === f || a.startsWith(f + '=')) || (execFlags.includes('-e') && /^-[a-zA-Z]*e/.test(a)),
    );
    if (bad) return [execArg(name, bad)];
    return [finding('network', 'L1', { p: name }, { cat: ['network'] })];
  };
}

export function judgeDate(args: readonly string[], name: string): Finding[] {
  const set = args.find((a) => a === '-s' || a.startsWith('--set') || /^-[uRr]*s/.test(a) || /^\d{8,12}(\.\d\d)?$/.test(a));
  return set ? [finding('system.change', 'L2', { p: `${name} ${set}` })] : [readOnly(name)];
}

export function judgeHostname(args: readonly string[], name: string): Finding[] {
  const ops = operands(args);
  return ops.length > 0 || args.some((a) => a === '-F' || a === '--file' || a === '-b')
    ? [finding('system.change', 'L2', { p: name })]
    : [readOnly(name)];
}

export function judgeMan(args: readonly string[], name: string): Finding[] {
  // -C names a man-db configuration file, which names the pager and the preprocessors it runs.
  const bad = args.find(
    (a) =>
      ['-P', '-H', '-X', '-l', '-Z', '-T', '-C'].includes(a) ||
      ['--pager', '--html', '--gxditview', '--local-file', '--troff-device', '--preprocessor', '--config-file'].some((n) => isLong(a, n)) ||
      /^-[a-zA-Z]*[PHpC]/.test(a),
  );
  return bad ? [execArg(name, bad)] : [readOnly(name)];
}

export function judgeSystemctl(args: readonly string[], name: string): Finding[] {
  const sub = operands(args)[0] ?? '';
  if (
    [
      '',
      'status',
      'list-units',
      'list-unit-files',
      'list-timers',
      'list-sockets',
      'is-active',
      'is-enabled',
      'is-failed',
      'show',
      'cat',
      'list-dependencies',
      'help',
    ].includes(sub) ||
    isInfoOnly(args)
  )
    return [readOnly(`${name} ${sub}`.trim())];
  return [finding('system.change', 'L2', { p: `${name} ${sub}` })];
}

export function judgeSimpleMode(readFlags: string[], execFlags: string[] = []): Handler {
  return (args, name) => {
    const e = args.find((a) => execFlags.some((f) => a === f || a.startsWith(f + '=')));
    if (e) return [execArg(name, e)];
    return args.some((a) => readFlags.includes(a)) ? [readOnly(name)] : [writeFile(name)];
  };
}

export function judgeKubectl(args: readonly string[], name: string): Finding[] {
  // A kubeconfig's `users[].user.exec` runs a credential program: one the command names (a workspace file) is workspace code.
  const kc = findLong(args, ['--kubeconfig']);
  if (kc) return [finding('workspace.kubeconfig', 'L1', { p: name, a: kc })];
  const sub = operands(args, ['-n', '--namespace', '--context', '-o', '--output', '-l', '--selector'])[0] ?? '';
  if (
    isInfoOnly(args) ||
    ['get', 'describe', 'logs', 'version', 'explain', 'api-resources', 'api-versions', 'cluster-info', 'top', 'diff'].includes(sub)
  )
    return [readOnly(`${name} ${sub}`.trim())];
  if (sub === 'config' && ['view', 'get-contexts', 'current-context', 'get-clusters'].includes(operands(args)[1] ?? ''))
    return [readOnly(`${name} config`)];
  if (['exec', 'cp', 'debug', 'attach', 'proxy', 'port-forward'].includes(sub)) return [execArg(name, sub)];
  return [finding('project.script', 'L1', { p: name, s: sub })];
}

export function judgeGh(args: readonly string[], name: string): Finding[] {
  const ops = operands(args, ['-R', '--repo']);
  const [group, action] = ops;
  if (isInfoOnly(args) || ops.length === 0) return [readOnly(name)];
  if (group === 'auth' && (action === 'token' || args.includes('--show-token') || args.includes('-t')))
    return [finding('secret.private_key', 'L2', { a: `${name} auth token` })];
  if (group === 'api') return [finding('network', 'L1', { p: `${name} api` }, { cat: ['network', 'write'] })];
  if (['list', 'view', 'status', 'diff', 'checks', 'search'].includes(action ?? '') || ['status', 'search', 'browse-none'].includes(group))
    return [finding('network', 'L1', { p: `${name} ${group} ${action ?? ''}`.trim() }, { cat: ['network'] })];
  return [finding('network', 'L1', { p: `${name} ${group} ${action ?? ''}`.trim() }, { cat: ['network', 'write'] })];
}

export function judgeBusybox(args: readonly string[], name: string, ctx: JudgeCtx): Finding[] {
  if (args.length === 0 || isInfoOnly(args)) return [readOnly(name)];
  return judgeCommand(args[0], args.slice(1), ctx);
}
