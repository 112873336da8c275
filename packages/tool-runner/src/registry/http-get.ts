import type { HttpGetStep } from '../tool-steps';
import { nonBlank, toolInput, touches } from './common';
import { pathCharFindings } from './fs-common';
import { defineTool } from './define-tool';
import { stringField } from './claude-code';
import { http, httpGetModule, netRulesModule } from '../lazy-modules';

const input = () => toolInput({ url: nonBlank('url') });

function host(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

export const httpGetTool = defineTool<HttpGetStep>({
  name: 'http.get',
  kind: 'fetch',
  description: {
    en: 'GET a URL and read it as text (HTML reduced to text); size, time and redirects are limited.',
    zh: '以 GET 获取一个 URL 并作为文本读取（HTML 转为纯文本）；大小、时间和重定向次数都有上限。',
  },
  input,
  example: { url: 'https://...' },
  permission: { arg: 'domain', subject: (s) => ({ kind: 'url', host: host(s.url) }) },
  judgeContext: (_s, env) => ({ workspace: env.session.workspace, slothtoolHome: env.session.slothtoolHome }),
  assess(s, ctx) {
    const { httpGetFindings } = netRulesModule();
    const h = host(s.url);
    return {
      findings: [...pathCharFindings(s.url), ...httpGetFindings(s.url, ctx.policy.allowPrivateNetwork)],
      touches: touches({ network: h ? [h] : [] }),
    };
  },
  approvalKey(s) {
    try {
      return `http.get ${new URL(s.url).origin}`;
    } catch {
      return `http.get ${s.url}`;
    }
  },
  digest: (s) => `GET ${s.url}`,
  summary: (s) => ({
    title: `http.get ${s.url}`,
    fields: [{ name: 'url', value: s.url }, ...(host(s.url) ? [{ name: 'host', value: host(s.url) }] : [])],
  }),
  execute: (s, ctx) => httpGetModule().runHttpGet(s, ctx as never),
  // WebFetch's prompt asks a model about the page; here the page itself comes back, so it is empty.
  claude: {
    names: ['WebFetch'],
    input: (s) => ({ url: s.url, prompt: '' }),
    fromInput: (c) => {
      const url = stringField(c, 'url');
      return typeof url === 'string' ? { url } : url;
    },
    response: (s, r) => {
      const text = String(r.content ?? '');
      const code = Number(r.httpStatus ?? 0);
      return { url: s.url, code, codeText: http().STATUS_CODES[code] ?? '', result: text, bytes: Buffer.byteLength(text) };
    },
  },
});
