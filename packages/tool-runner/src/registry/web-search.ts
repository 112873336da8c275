import { z } from 'zod';
import { finding } from '../policy/finding';
import type { WebSearchStep } from '../tool-steps';
import { nonBlank, presentFields, showWord, toolInput, touches } from './common';
import { defineTool } from './define-tool';
import { stringField } from './claude-code';
import { webSearchModule } from '../lazy-modules';

const input = () =>
  toolInput({
    query: nonBlank('query').refine((q) => q.length <= 400, { message: 'query must be at most 400 characters' }),
    /** Results at most (default 8). */
    maxResults: z.number().int().min(1).max(20).optional(),
  });

export const webSearchTool = defineTool<WebSearchStep>({
  name: 'web.search',
  kind: 'fetch',
  description: {
    en: 'Search the web (the provider set in ai.json "webSearch"): results as {title, url, snippet}; read a page with http.get.',
    zh: '搜索网页（使用 ai.json 中 "webSearch" 设置的服务）：结果为 {title, url, snippet}；用 http.get 读取页面。',
  },
  input,
  example: { query: 'zod discriminatedUnion', maxResults: 5 },
  // The query leaves the machine: a network step (L1, or L0 with allowNetwork or an allow rule `web.search`).
  permission: { arg: 'words', subject: () => ({ kind: 'none' }) },
  judgeContext: (_s, env) => ({ webSearchConfigured: env.session.webSearch !== undefined }),
  // Without a provider nothing leaves the machine: the step runs at once and says which setting to add.
  assess: (_s, ctx) =>
    ctx.webSearchConfigured === false
      ? { findings: [finding('web.search.unconfigured', 'L0')], touches: touches() }
      : { findings: [finding('web.search', 'L1', undefined, { cat: ['network'] })], touches: touches() },
  approvalKey: () => 'web.search',
  digest: (s) => `search the web for ${showWord(s.query)}`,
  summary: (s) => ({
    title: `search the web for ${showWord(s.query)}`,
    fields: presentFields({ query: s.query, maxResults: s.maxResults }),
  }),
  execute: (s, ctx) => webSearchModule().runWebSearch(s, ctx as never),
  claude: {
    names: ['WebSearch'],
    input: (s) => ({ query: s.query }),
    fromInput: (c) => {
      const query = stringField(c, 'query');
      return typeof query === 'string' ? { query } : query;
    },
    response: (s, r) => {
      const hits = Array.isArray(r.results) ? (r.results as Array<{ title?: unknown; url?: unknown }>) : [];
      return { query: s.query, results: [{ tool_use_id: r.id, content: hits.map((h) => ({ title: h.title, url: h.url })) }] };
    },
  },
});
