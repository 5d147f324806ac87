// Many calls in one reply each listen to the turn's signal while they run (the hub's tool call does, to be cancelled
// with the turn): Node must not warn about it (MaxListenersExceededWarning on the person's terminal).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import { host, memoryStore } from '../fakes/tool-host';
import { FakeAnthropicApi, isToolResultTurn } from '../fakes/anthropic-api';

const CALLS = 12;
const api = new FakeAnthropicApi((body) =>
  isToolResultTurn(body) ? { text: 'all read' } : { toolUses: Array.from({ length: CALLS }, (_, i) => ({ name: 'workspace__read_file', input: { i } })) },
);
let client: Anthropic;
before(async () => {
  client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
});
after(() => api.stop());

test(`${CALLS} calls in one reply, each listening to the turn's signal, print no MaxListenersExceededWarning`, async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  let running = 0;
  let allRunning: () => void = () => undefined;
  const together = new Promise<void>((resolve) => (allRunning = resolve));
  const h = host({
    workspace__read_file: {
      readOnly: true,
      // As the hub's call does: a listener on the turn's signal while it runs, taken off at the end.
      run: async (_args, signal) => {
        const stop = (): void => undefined;
        signal?.addEventListener('abort', stop, { once: true });
        if (++running === CALLS) allRunning();
        await together;
        signal?.removeEventListener('abort', stop);
        return { content: [{ type: 'text', text: 'read' }] };
      },
    },
  });
  const agent = new Agent({ client, host: h, model: 'claude-test', workspaceName: 'ws', approvals: memoryStore(), askApproval: async () => 'once' });
  try {
    const status = await agent.runTurn({ text: 'read them' }, () => undefined, new AbortController().signal);
    assert.equal(status, 'done');
    // A warning is emitted on the next tick: let it come.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      warnings.filter((w) => /MaxListeners/.test(w)),
      [],
    );
  } finally {
    process.off('warning', onWarning);
  }
});
