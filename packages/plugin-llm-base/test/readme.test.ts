import { spawn } from 'child_process';
import { promises as fs } from 'fs';
import * as path from 'path';
import { createTempHome, llmBaseConfig, llmProfile, packageDir, startScriptedServer } from '@holic512/testkit';

// The README's module example is what other plugins copy: run it as written.
test('the README example finds llm-base through the registry and gets a JSON object', async () => {
  const root = packageDir('plugin-llm-base');
  const readme = await fs.readFile(path.join(root, 'README.md'), 'utf8');
  const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example).toBeDefined();
  const home = await createTempHome({ language: 'en' });
  const server = await startScriptedServer();
  try {
    await home.registerPlugin('llm-base', root);
    await home.writeJson('plugin-configs/llm-base.json', llmBaseConfig({ local: llmProfile(server.baseURL, { max_retries: undefined }) }));
    server.enqueue({ content: '{"answer": 42}' });
    const script = `${example}
      const pieces = [];
      ask('q', { onText: (d) => pieces.push(d) }).then((data) => console.log(JSON.stringify({ data, streamed: pieces.join('') })));`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', script], { env: home.env, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(text));
    });
    expect(JSON.parse(out)).toEqual({ data: { answer: 42 }, streamed: '{"answer": 42}' });
    expect(server.requests[0].body).toMatchObject({ stream: true, temperature: 0.2 });
  } finally {
    await server.close();
    await home.cleanup();
  }
});
