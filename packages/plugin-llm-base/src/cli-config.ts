/** `config …` (profiles: create, update, delete, set-default, list, show, export, presets), the
 * questions it asks on a terminal, and the `-i` menu around them. */
import { closest } from '@holic512/shared/lib/usage';
import { ArgsError, profileFlags, type ParsedArgs } from './cli-args';
import { argsProblem, CliFailure, help, json, unwrap, usageError, UsageFailure, type CliIo } from './cli-io';
import { printDoctor } from './cli-reports';
import { PROFILE_DEFAULTS } from './config-store';
import { t, type Lang } from './i18n';
import * as api from './index';
import { prompts } from './lazy-modules';
import { isEnvReference, maskConfig, maskProfile } from './masking';
import { findPreset, presetBaseUrl, presetProfile, PRESETS } from './presets';

const CONFIG_COMMANDS = ['create', 'update', 'delete', 'set-default', 'list', 'show', 'export', 'presets'];

/** Ask for the profile fields, starting from `initial`. Cancel (Ctrl-C) returns null. */
async function askProfile(lang: Lang, initial: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const ask = prompts();
  // A stored key is never put on the screen: it is asked for hidden, and Enter keeps it.
  const currentKey = typeof initial.api_key === 'string' ? initial.api_key : '';
  const hideKey = currentKey !== '' && !isEnvReference(currentKey);
  let cancelled = false;
  const answers = await ask(
    [
      { type: 'text', name: 'base_url', message: t(lang, 'enterBaseUrl'), initial: String(initial.base_url ?? '') },
      hideKey
        ? { type: 'password', name: 'api_key', message: t(lang, 'enterApiKeyKeep') }
        : { type: 'text', name: 'api_key', message: t(lang, 'enterApiKey'), initial: currentKey },
      { type: 'text', name: 'low_model', message: t(lang, 'enterLowModel'), initial: String(initial.low_model ?? '') },
      { type: 'text', name: 'high_model', message: t(lang, 'enterHighModel'), initial: String(initial.high_model ?? '') },
      { type: 'number', name: 'timeout', message: t(lang, 'enterTimeout'), initial: Number(initial.timeout ?? 60000) },
    ],
    { onCancel: () => ((cancelled = true), false) },
  );
  if (cancelled) return null;
  if (hideKey && !answers.api_key) answers.api_key = currentKey;
  return { ...initial, ...answers };
}

async function askPreset(lang: Lang): Promise<Record<string, unknown> | null> {
  const ask = prompts();
  const { preset } = await ask({
    type: 'select',
    name: 'preset',
    message: t(lang, 'choosePreset'),
    choices: [
      ...PRESETS.map((p) => ({ title: `${p.label}  ${presetBaseUrl(p)}`, value: p.name })),
      { title: t(lang, 'customPreset'), value: '' },
    ],
  });
  if (preset === undefined) return null;
  const found = preset ? findPreset(preset) : undefined;
  return found ? presetProfile(found) : { ...PROFILE_DEFAULTS };
}

/** `config create [name]`: from a preset, from the options given, or (on a terminal) from the answers to questions. */
async function createCommand(args: ParsedArgs, name: string | undefined, io: CliIo, lang: Lang): Promise<number> {
  const fields = profileFlags(args.flags);
  let base: Record<string, unknown> = {};
  let profileName = name;
  if (typeof args.flags.preset === 'string') {
    const preset = findPreset(args.flags.preset);
    if (!preset)
      throw usageError(
        t(lang, 'unknownPreset', { name: args.flags.preset, names: PRESETS.map((p) => p.name).join(', ') }),
        closest(
          args.flags.preset,
          PRESETS.map((p) => p.name),
        ),
      );
    base = presetProfile(preset);
    profileName ??= preset.name;
  } else if (Object.keys(fields).length === 0) {
    if (!io.interactive) throw usageError(t(lang, 'notInteractive'));
    const chosen = await askPreset(lang);
    if (!chosen) return 1;
    const asked = await askProfile(lang, chosen);
    if (!asked) return 1;
    base = asked;
  }
  if (!profileName) {
    if (!io.interactive) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
    const ask = prompts();
    profileName = (await ask({ type: 'text', name: 'n', message: t(lang, 'enterProfileName') })).n;
    if (!profileName) return 1;
  }
  const config = unwrap(api.create_profile(profileName, { ...base, ...fields }));
  io.stdout(json(maskConfig(config)));
  io.stdout(t(lang, 'configCreated', { name: profileName }) + '\n');
  return 0;
}

/** `config update <name>`: the options given, or (on a terminal) the answers to questions starting from the saved profile. */
async function updateCommand(args: ParsedArgs, name: string | undefined, io: CliIo, lang: Lang): Promise<number> {
  if (!name) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
  let fields = profileFlags(args.flags);
  if (Object.keys(fields).length === 0) {
    if (!io.interactive) throw usageError(t(lang, 'notInteractive'));
    const list = unwrap(api.list_profiles());
    const current = Object.prototype.hasOwnProperty.call(list.profiles, name) ? list.profiles[name] : undefined;
    if (!current) throw new CliFailure({ code: 'NO_PROFILE', message: t(lang, 'noProfile', { name }) });
    const asked = await askProfile(lang, current);
    if (!asked) return 1;
    fields = asked;
  }
  const config = unwrap(api.update_profile(name, fields));
  io.stdout(json(maskConfig(config)));
  io.stdout(t(lang, 'configUpdated', { name }) + '\n');
  return 0;
}

export async function configCommand(args: ParsedArgs, io: CliIo, lang: Lang): Promise<number> {
  const [sub, name] = args.positionals.slice(1);
  if (args.flags.interactive) return interactive(io, lang);
  if (sub === undefined) {
    io.stdout(help(lang));
    return 0;
  }
  switch (sub) {
    case 'create':
      return createCommand(args, name, io, lang);
    case 'update':
      return updateCommand(args, name, io, lang);
    case 'delete': {
      if (!name) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
      io.stdout(json(maskConfig(unwrap(api.delete_profile(name)))));
      io.stdout(t(lang, 'configDeleted', { name }) + '\n');
      return 0;
    }
    case 'set-default': {
      if (!name) throw usageError(t(lang, 'missingArg', { arg: 'name' }));
      io.stdout(json(maskConfig(unwrap(api.set_default_profile(name)))));
      io.stdout(t(lang, 'defaultSet', { name }) + '\n');
      return 0;
    }
    case 'list': {
      const list = unwrap(api.list_profiles());
      io.stdout(json({ default_profile: list.default_profile, profiles: Object.keys(list.profiles) }));
      return 0;
    }
    case 'show': {
      const list = unwrap(api.list_profiles());
      const id = name || list.default_profile;
      const profile = id && Object.prototype.hasOwnProperty.call(list.profiles, id) ? list.profiles[id] : undefined;
      if (!profile) {
        throw new CliFailure({ code: 'NO_PROFILE', message: id ? t(lang, 'noProfile', { name: id }) : t(lang, 'noDefaultProfile') });
      }
      io.stdout(json({ profile_id: id, profile: maskProfile(profile) }));
      return 0;
    }
    case 'export': {
      const list = unwrap(api.list_profiles());
      io.stdout(json(maskConfig({ default_profile: list.default_profile, profiles: list.profiles })));
      return 0;
    }
    case 'presets': {
      io.stdout(json(api.list_presets()));
      return 0;
    }
    default: {
      const near = closest(sub, CONFIG_COMMANDS);
      throw usageError(t(lang, 'unknownCommand', { cmd: `config ${sub}` }), near && `config ${near}`);
    }
  }
}

export async function interactive(io: CliIo, lang: Lang): Promise<number> {
  if (!io.interactive) throw usageError(t(lang, 'notInteractive'));
  const ask = prompts();
  const pickProfile = async (): Promise<string | undefined> => {
    const list = unwrap(api.list_profiles());
    const names = Object.keys(list.profiles);
    if (names.length === 0) {
      io.stdout(t(lang, 'noDefaultProfile') + '\n');
      return undefined;
    }
    const { name } = await ask({
      type: 'select',
      name: 'name',
      message: t(lang, 'chooseProfile'),
      choices: names.map((n) => ({ title: n === list.default_profile ? `${n} *` : n, value: n })),
    });
    return name;
  };
  for (;;) {
    const { action } = await ask({
      type: 'select',
      name: 'action',
      message: t(lang, 'menuTitle'),
      choices: [
        { title: t(lang, 'menuCreate'), value: 'create' },
        { title: t(lang, 'menuUpdate'), value: 'update' },
        { title: t(lang, 'menuDelete'), value: 'delete' },
        { title: t(lang, 'menuList'), value: 'list' },
        { title: t(lang, 'menuSetDefault'), value: 'set-default' },
        { title: t(lang, 'menuShow'), value: 'show' },
        { title: t(lang, 'menuExport'), value: 'export' },
        { title: t(lang, 'menuDoctor'), value: 'doctor' },
        { title: t(lang, 'menuExit'), value: 'exit' },
      ],
    });
    if (!action || action === 'exit') return 0;
    try {
      if (action === 'create') {
        await configCommand({ positionals: ['config', 'create'], flags: {} }, io, lang);
      } else if (action === 'list' || action === 'export') {
        await configCommand({ positionals: ['config', action], flags: {} }, io, lang);
      } else {
        const name = await pickProfile();
        if (!name) continue;
        if (action === 'delete') {
          const { yes } = await ask({ type: 'confirm', name: 'yes', message: t(lang, 'confirmDelete', { name }), initial: false });
          if (!yes) continue;
        }
        if (action === 'doctor') printDoctor(await api.doctor(name), io, lang);
        else await configCommand({ positionals: ['config', action, name], flags: {} }, io, lang);
      }
    } catch (err) {
      if (!(err instanceof CliFailure || err instanceof ArgsError || err instanceof UsageFailure)) throw err;
      io.stderr((err instanceof CliFailure ? err.error.message : err instanceof ArgsError ? argsProblem(err, lang) : err.message) + '\n');
    }
    io.stdout('\n');
  }
}
