'use strict';
// Row 5: a scripted 300-turn session; each turn runs `cat` on a 50 KB file (the real
// tool-runner) and then answers. Request size per turn against what sending the full history
// (every prompt, reply and complete command output so far) would cost. The conversation folds at
// marks of the budget, so a request's size rises and falls within a fold cycle: a stretch of 30
// turns is compared with another (its largest request), never one turn with another.
const fs = require('fs');
const path = require('path');
const { withAgentHome } = require('./in-process');

exports.title = 'Context over 300 turns (50 KB outputs)';

const TURNS = 300;

exports.run = async function run(ctx) {
  const cwd = path.join(ctx.temp.home, 'context-project');
  fs.mkdirSync(cwd, { recursive: true });
  const files = {
    'en.log': 'INFO request handled in 12ms path=/api/items?page=3 user=42\n'.repeat(Math.ceil(50000 / 60)).slice(0, 50000),
    'zh.log': '信息 请求已处理 路径为 接口 物品 第三页\n'.repeat(2000).slice(0, 50000 / 3),
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(cwd, name), text);
  const { SUMMARY_MARKER } = require(path.join(ctx.root, 'packages/plugin-ai'));
  return withAgentHome(ctx, async ({ server, createAppAgent }) => {
    let turn = 0;
    const chatText = (t) => `Turn ${t}: the log looks healthy; all requests were handled quickly. `.repeat(10);
    server.setHandler((req) => {
      const msgs = req.body.messages;
      const last = msgs[msgs.length - 1].content;
      if (msgs.some((m) => m.content.includes(SUMMARY_MARKER))) {
        return {
          json: {
            summary: `Up to turn ${turn}: the user keeps checking two large logs.`,
            keyFacts: ['logs are ~50 KB', 'nothing abnormal'],
            openTasks: [],
          },
        };
      }
      if (last.includes('"_event":"tool_result"')) return { json: { type: 'chat', message: chatText(turn) } };
      return {
        json: {
          type: 'cmd',
          message: 'read the log',
          data: { cwd: null, commands: [{ program: 'cat', args: [turn % 2 ? 'zh.log' : 'en.log'] }] },
        },
      };
    });
    const { agent } = createAppAgent({ env: ctx.temp.env, cwd, lang: 'en' });
    const folds = { shortened: 0, summary: 0 };
    agent.on((e) => {
      if (e.type === 'compaction') folds[e.method === 'shortened' ? 'shortened' : 'summary']++;
    });
    const perTurnMax = [];
    const fullHistory = [];
    let history = 0;
    let systemBytes = 0;
    for (turn = 0; turn < TURNS; turn++) {
      const before = server.requests.length;
      const input = `turn ${turn}: check the log again and tell me if anything changed.`;
      const r = await agent.send(input);
      if (r.outcome !== 'answered') throw new Error(`turn ${turn} ended with ${r.outcome}: ${r.message}`);
      const reqs = server.requests.slice(before).map((q) => Buffer.byteLength(JSON.stringify(q.body.messages)));
      perTurnMax.push(Math.max(...reqs));
      if (turn === 0)
        systemBytes = Buffer.byteLength(JSON.stringify(server.requests[before].body.messages.filter((m) => m.role === 'system')));
      // full history: everything said so far, with complete command output, sent every time
      history +=
        Buffer.byteLength(input) + 200 + Buffer.byteLength(files[turn % 2 ? 'zh.log' : 'en.log']) + Buffer.byteLength(chatText(turn));
      fullHistory.push(systemBytes + history);
    }
    agent.dispose?.();
    const summaries = server.requests.filter((q) => q.body.messages.some((m) => m.content.includes(SUMMARY_MARKER))).length;
    const kb = (b) => `${(b / 1024).toFixed(0)} KB`;
    const max = Math.max(...perTurnMax);
    const at300 = perTurnMax[TURNS - 1];
    const ratio = fullHistory[TURNS - 1] / at300;
    const first30 = Math.max(...perTurnMax.slice(0, 30));
    const last30 = Math.max(...perTurnMax.slice(TURNS - 30));
    const early = Math.max(...perTurnMax.slice(50, 150));
    const late = Math.max(...perTurnMax.slice(200));
    const budgetTokens = agent.contextSizes().budget;
    return [
      {
        name: 'largest request (any turn)',
        value: `${kb(max)} (budget ${budgetTokens} tokens)`,
        target: 'bounded by the budget',
        ok: max <= budgetTokens * 4,
      },
      {
        name: 'largest request, turns 201–300 vs 51–150',
        value: `${kb(late)} vs ${kb(early)}`,
        target: 'does not grow',
        ok: late <= early * 1.05,
      },
      {
        metric: last30 / first30,
        better: 'lower',
        name: 'largest request, turns 271–300 vs turns 1–30 (the baseline, same run)',
        value: `${kb(last30)} vs ${kb(first30)} · ${(last30 / first30).toFixed(2)}×`,
        target: 'flat (≤ 1.1×)',
        ok: last30 <= first30 * 1.1,
      },
      {
        name: 'folds',
        value: `${folds.shortened + folds.summary} in ${TURNS} turns (1 per ${(TURNS / Math.max(1, folds.shortened + folds.summary)).toFixed(1)} turns): ${folds.shortened} shortened older results, ${folds.summary} summarised older turns (${summaries} summary calls)`,
        target: '',
        ok: null,
      },
      {
        name: 'full history at turn 300',
        value: `${kb(fullHistory[TURNS - 1])} → ${ratio.toFixed(0)}× larger`,
        target: '≥ 20× smaller',
        ok: ratio >= 20,
      },
    ];
  });
};
