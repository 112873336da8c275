/**
 * `probe`: small real requests that find out what a profile's server accepts and whether its
 * (low) model answers correctly: a valid tool call, JSON that follows a schema, a JSON object.
 * The result is recorded in the profile (`capabilities`, with the date) so `transport: "auto"`
 * can use the best that passed: tools > json_schema > json; `vision` (a small image read
 * correctly) lets a call with images to a blind model fail with a clear message, unsent.
 */
import { parseJsonObject } from '@holic512/shared/lib/json-object';
import { chat, type CallDeps } from './client';
import { getProfile, mutateAsync, ownProfile, type StoreContext } from './config-store';
import type { Capabilities } from './transport';
import { t } from './i18n';

const TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the current weather of a city.',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'the city name' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'integer' }, unit: { type: 'string', enum: ['apples', 'pears'] } },
  required: ['answer', 'unit'],
  additionalProperties: false,
};

/** One probe request's verdict, with why it failed. */
export interface ProbeCheck {
  ok: boolean;
  detail: string;
}

export interface ProbeReport {
  profile: string;
  model: string;
  tools: ProbeCheck;
  json_schema: ProbeCheck;
  json_object: ProbeCheck;
  vision: ProbeCheck;
  capabilities: Capabilities;
}

async function probeTools(profile: string, deps: CallDeps): Promise<ProbeCheck> {
  const r = await chat(
    [{ role: 'user', content: 'What is the weather in Paris? Use the tool.' }],
    'low',
    profile,
    { tools: [TOOL], temperature: 0 },
    deps,
  );
  if (!r.success) return { ok: false, detail: `${r.error.code}: ${r.error.message}` };
  const call = r.tool_calls?.find((c) => c.name === 'get_weather');
  if (!call) return { ok: false, detail: r.tool_calls?.length ? `called ${r.tool_calls[0].name}` : 'answered without a tool call' };
  const args = parseJsonObject(call.arguments);
  if (!args || typeof args.city !== 'string')
    return { ok: false, detail: `arguments not as the schema says: ${call.arguments.slice(0, 80)}` };
  return { ok: true, detail: `get_weather(${JSON.stringify(args)})` };
}

async function probeSchema(profile: string, deps: CallDeps): Promise<ProbeCheck> {
  const r = await chat(
    [{ role: 'user', content: 'I have 3 apples and get 4 more. How many apples? Answer with the JSON object only.' }],
    'low',
    profile,
    { json_schema: { name: 'count', schema: SCHEMA, strict: true }, temperature: 0 },
    deps,
  );
  if (!r.success) return { ok: false, detail: `${r.error.code}: ${r.error.message}` };
  if (r.format_rejected) return { ok: false, detail: 'the server refused response_format json_schema' };
  const d = r.data;
  const keys = Object.keys(d).sort().join(',');
  if (
    keys !== 'answer,unit' ||
    typeof d.answer !== 'number' ||
    !Number.isInteger(d.answer) ||
    (d.unit !== 'apples' && d.unit !== 'pears')
  ) {
    return { ok: false, detail: `did not follow the schema: ${JSON.stringify(d).slice(0, 80)}` };
  }
  return { ok: true, detail: JSON.stringify(d) };
}

/** A 32 × 32 solid red PNG: a model that sees it says "red". */
const RED_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAKklEQVR42mO4IyJCU8QwasGoBaMWjFowasGoBaMWjFowasGoBaMWDBULAJ3LED19/LmKAAAAAElFTkSuQmCC';

async function probeVision(profile: string, deps: CallDeps): Promise<ProbeCheck> {
  const content = [
    { type: 'text', text: 'What is the main colour of this image? Answer with the JSON object {"colour": "<one word>"}.' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${RED_PNG}` } },
  ];
  const r = await chat([{ role: 'user', content }], 'low', profile, { temperature: 0 }, deps);
  if (!r.success) return { ok: false, detail: `${r.error.code}: ${r.error.message}` };
  const answer = JSON.stringify(r.data).slice(0, 60);
  return /\bred\b|\u7ea2/i.test(answer)
    ? { ok: true, detail: t(deps.lang, 'probeVisionOk', { answer }) }
    : { ok: false, detail: t(deps.lang, 'probeVisionWrong', { answer }) };
}

async function probeJsonObject(profile: string, deps: CallDeps): Promise<ProbeCheck> {
  const r = await chat(
    [{ role: 'user', content: 'Reply with exactly this JSON object: {"ok": true}' }],
    'low',
    profile,
    { temperature: 0 },
    deps,
  );
  if (!r.success) return { ok: false, detail: `${r.error.code}: ${r.error.message}` };
  return r.data._fallback === true ? { ok: false, detail: 'not a JSON object' } : { ok: true, detail: JSON.stringify(r.data).slice(0, 80) };
}

/** Run the three probes against `profileName` (or the unsaved profile in deps) and record the
 * capabilities in the saved profile (atomically, under the config lock). */
export async function probe(profileName: string | null, deps: CallDeps, now: Date = new Date()): Promise<ProbeReport> {
  const ctx: StoreContext = { env: deps.env, lang: deps.lang };
  const { profile_id, profile } = deps.unsaved ?? getProfile(profileName, ctx);
  const tools = await probeTools(profile_id, deps);
  const json_schema = await probeSchema(profile_id, deps);
  const json_object = await probeJsonObject(profile_id, deps);
  // Asked without the recorded verdict, so a model once found blind can be probed again.
  const vision = await probeVision(profile_id, {
    ...deps,
    unsaved: deps.unsaved ?? { profile_id, profile: { ...profile, capabilities: undefined } },
  });
  const capabilities: Capabilities = {
    tools: tools.ok,
    json_schema: json_schema.ok,
    json_object: json_object.ok,
    vision: vision.ok,
    probed_at: now.toISOString(),
  };
  if (!deps.unsaved) {
    await mutateAsync(ctx, (config) => {
      const p = ownProfile(config, profile_id);
      if (p) p.capabilities = capabilities;
    });
  }
  return { profile: profile_id, model: profile.low_model, tools, json_schema, json_object, vision, capabilities };
}
