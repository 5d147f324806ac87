// What the CLI prints for a turn's events: a call the person denied is a decision, not an error.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { CliRenderer } from '../../src/cli/render';

function printed(render: (r: CliRenderer) => void): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  render(new CliRenderer(out, false));
  return text;
}

describe('the CLI renderer', () => {
  test('a denied call is printed as [denied], a failed one as [error]', () => {
    const text = printed((r) => {
      r.handle({ type: 'event', event: { kind: 'tool_call', turnId: 't', callId: 'a', server: 'workspace', tool: 'write_file', input: { path: 'x' } } });
      r.handle({ type: 'event', event: { kind: 'approval', callId: 'a', decision: 'deny' } });
      r.handle({
        type: 'event',
        event: { kind: 'tool_result', callId: 'a', isError: true, content: [{ type: 'text', text: 'The person denied this tool call.' }], durationMs: 0 },
      });
      r.handle({ type: 'event', event: { kind: 'tool_call', turnId: 't', callId: 'b', server: 'workspace', tool: 'read_file', input: { path: 'y' } } });
      r.handle({ type: 'event', event: { kind: 'tool_result', callId: 'b', isError: true, content: [{ type: 'text', text: 'no such file' }], durationMs: 3 } });
    });
    assert.match(text, /^\[denied\] workspace__write_file \(0 ms\) The person denied this tool call\.$/m);
    assert.match(text, /^\[error\] workspace__read_file \(3 ms\) no such file$/m);
  });

  test("the API's retries are said on the status stream (stderr), the rest of a turn's waiting is not", () => {
    const out = new PassThrough();
    const status = new PassThrough();
    let said = '';
    status.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    const r = new CliRenderer(out, false, undefined, status);
    r.handle({ type: 'activity', turnId: 't', activity: { kind: 'request', attempt: 1, attempts: 3 } });
    r.handle({ type: 'activity', turnId: 't', activity: { kind: 'retry', reason: 'overloaded', status: 529, waitMs: 2000, attempt: 2, attempts: 3 } });
    r.handle({ type: 'activity', turnId: 't', activity: { kind: 'thinking' } });
    assert.equal(said, 'mcp-agent: The API is overloaded; retrying in 2 s (try 2 of 3)\n');
  });
});
