// A server's sampling on the terminal (src/cli/sampling.ts) with --yes: approved as an "always" with the
// budget said; once the broker says that budget is spent, denied and said so; a request that runs without
// asking is still shown with the budget used.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { terminalSampling } from '../../src/cli/sampling';
import type { SamplingApproval } from '../../src/core/sampling/sampling-broker';

function terminal() {
  const lines: string[] = [];
  return { lines, ask: async () => undefined, line: (t: string) => void lines.push(t) };
}

const request: SamplingApproval = {
  server: 'srv',
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 50,
  model: 'claude-test',
  tools: [],
  alwaysLimit: 1_000,
};

describe('sampling on the terminal', () => {
  test('--yes grants "always" with its budget, and denies once the budget is spent', async () => {
    const t = terminal();
    const s = terminalSampling(t, true);
    assert.equal(await s.ask(request, new AbortController().signal), 'always');
    assert.match(t.lines.join('\n'), /\(--yes lets this server sample up to 1,000 tokens this run; past that its requests are denied\)/);
    s.allowed?.(request, { server: 'srv', used: 420, limit: 1_000 });
    assert.equal(t.lines.at(-1), '  (allowed: always for this server, 420 of 1,000 tokens used before this one)');
    assert.equal(await s.ask({ ...request, spent: { server: 'srv', used: 1_010, limit: 1_000 } }, new AbortController().signal), 'deny');
    assert.deepEqual(t.lines.slice(-2), [
      '  (its budget after "always" is spent: 1,010 of 1,000 tokens used)',
      '  (denied: --yes allows a server no more sampling than one budget)',
    ]);
  });
});
