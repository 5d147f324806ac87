// Guards each step of the one approved-call path (tool-call/approved-call.ts) as the model's calls and a view's calls
// take it: the tool is looked up once, approval is asked (a denial stops the call), a file change is reviewed as the
// change it makes, a checkpoint is taken before a change, and what comes back is capped for the chat and the model.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../src/core/agent/agent';
import type { AgentOutput, ApprovalRequest, ToolHost } from '../../src/core/agent/types';
import { RESULT_LIMITS } from '../../src/core/agent/result-caps';
import { utf8Bytes } from '../../src/core/agent/text-cut';
import { ShadowGit } from '../../src/core/checkpoint/shadow-git';
import type { CallOptions, CallToolResult, HubTool } from '../../src/core/mcp/types';
import type { ApprovalDecision, ChatEvent } from '../../src/common/protocol';
import { EXPECT_BASE } from '../../src/node/reviewed-edit';
import { host, memoryStore, type FakeTool } from '../fakes/tool-host';
import { FakeAnthropicApi, type ToolUseStep } from '../fakes/anthropic-api';
import { openTestChat } from '../support/test-chat';

const text = (s: string): CallToolResult => ({ content: [{ type: 'text', text: s }] });

/**
 * The fake tool host with the lookup the hub offers (findTool), counted: the agent takes its host by injection, so
 * this double of the host interface sees every lookup of a call, and whether the call was made by name (which the
 * hub would look up once more) or with the tool itself.
 */
function countingHost(tools: Record<string, FakeTool>): ToolHost & { lookups: string[]; targets: Array<string | HubTool>; metas: unknown[] } {
  const base = host(tools);
  const lookups: string[] = [];
  const targets: Array<string | HubTool> = [];
  const metas: unknown[] = [];
  return {
    lookups,
    targets,
    metas,
    tools: () => base.tools(),
    findTool: (name) => {
      lookups.push(name);
      return base.tools().find((t) => t.qualifiedName === name);
    },
    callTool: (tool, args, options?: CallOptions) => {
      targets.push(tool);
      metas.push(options?.meta);
      return base.callTool(tool, args, options);
    },
  };
}

describe('the approved-call path, step by step', () => {
  const api = new FakeAnthropicApi();
  let client: Anthropic;
  let dir: string;
  before(async () => {
    client = new Anthropic({ apiKey: 'sk-test', baseURL: await api.start(), maxRetries: 0 });
    dir = mkdtempSync(join(tmpdir(), 'h-onepath-path-'));
  });
  after(async () => {
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One turn whose reply makes `uses`, then ends; what the person was asked, what was emitted and sent back. */
  async function turn(
    tools: Record<string, FakeTool>,
    uses: ToolUseStep[],
    options: { decide?: ApprovalDecision; beforeChange?: () => Promise<void>; workspaceDir?: string } = {},
  ) {
    const h = countingHost(tools);
    const asked: ApprovalRequest[] = [];
    const agent = new Agent({
      client,
      host: h,
      model: 'claude-test',
      workspaceName: 'ws',
      approvals: memoryStore(),
      askApproval: async (r) => (asked.push(r), options.decide ?? 'once'),
      beforeChange: options.beforeChange,
      workspaceDir: options.workspaceDir,
    });
    api.setScript([{ toolUses: uses }, { text: 'done' }]);
    const out: AgentOutput[] = [];
    await agent.runTurn({ text: 'go' }, (o) => out.push(o), new AbortController().signal);
    const events = out.filter((o): o is { type: 'event'; event: ChatEvent } => o.type === 'event').map((o) => o.event);
    const sent = api.requests.at(-1)!.body.messages.at(-1)!.content as Array<{ tool_use_id: string; content: unknown }>;
    return { host: h, asked, events, sent };
  }

  test('each call of the model looks its tool up once, and is made with the tool itself, not its name again', async () => {
    const { host: h } = await turn({ s__read: { readOnly: true, run: async () => text('r') }, s__write: { run: async () => text('w') } }, [
      { name: 's__read', input: {}, id: 'toolu_1' },
      { name: 's__write', input: {}, id: 'toolu_2' },
      { name: 's__read', input: {}, id: 'toolu_3' },
    ]);
    assert.deepEqual(h.lookups, ['s__read', 's__write', 's__read']);
    assert.equal(h.targets.length, 3);
    assert.ok(h.targets.every((t) => typeof t !== 'string'));
  });

  test('a call that needs approval asks the person; a denial stops it before the tool runs', async () => {
    let runs = 0;
    const tools = { s__write: { run: async () => (runs++, text('written')) } };
    const denied = await turn(tools, [{ name: 's__write', input: { a: 1 }, id: 'toolu_d' }], { decide: 'deny' });
    assert.equal(denied.asked.length, 1);
    assert.equal(denied.asked[0]!.tool.qualifiedName, 's__write');
    assert.equal(runs, 0);
    assert.match(JSON.stringify(denied.sent), /denied this tool call/);
    const allowed = await turn(tools, [{ name: 's__write', input: { a: 1 }, id: 'toolu_a' }], { decide: 'once' });
    assert.equal(allowed.asked.length, 1);
    assert.equal(runs, 1);
  });

  test('a file write is reviewed as the change it makes, and made only to the file the person saw', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'old line\n');
    const { asked, host: h } = await turn(
      { workspace__write_file: { run: async () => text('ok') } },
      [{ name: 'workspace__write_file', input: { path: 'notes.txt', content: 'new line\n' }, id: 'toolu_e' }],
      { workspaceDir: dir },
    );
    const edit = asked[0]?.edit;
    assert.ok(edit, 'the approval carries the change');
    assert.equal(edit.before, 'old line\n');
    assert.equal(edit.after, 'new line\n');
    assert.deepEqual(h.metas[0], { [EXPECT_BASE]: edit.base });
  });

  test('a checkpoint is taken before a call that may change something, never for a read', async () => {
    const log: string[] = [];
    const beforeChange = async (): Promise<void> => void log.push('checkpoint');
    await turn({ s__read: { readOnly: true, run: async () => (log.push('read'), text('r')) } }, [{ name: 's__read', input: {}, id: 'toolu_r' }], {
      beforeChange,
    });
    assert.deepEqual(log, ['read']);
    log.length = 0;
    await turn({ s__write: { run: async () => (log.push('write'), text('w')) } }, [{ name: 's__write', input: {}, id: 'toolu_w' }], { beforeChange });
    assert.deepEqual(log, ['checkpoint', 'write']);
  });

  test('a big result is capped for the chat and for the model', async () => {
    const big = 'x'.repeat(3 * RESULT_LIMITS.textPerResult);
    const { events, sent } = await turn({ s__read: { readOnly: true, run: async () => text(big) } }, [{ name: 's__read', input: {}, id: 'toolu_big' }]);
    const shown = events.find((e): e is Extract<ChatEvent, { kind: 'tool_result' }> => e.kind === 'tool_result')!;
    const shownBytes = shown.content.reduce((n, c) => n + (c.type === 'text' ? utf8Bytes(c.text) : 0), 0);
    assert.ok(shownBytes <= RESULT_LIMITS.textPerResult, `the card got ${shownBytes} bytes`);
    const toModel = JSON.stringify(sent[0]!.content);
    assert.ok(toModel.length <= RESULT_LIMITS.textPerResult + 2_000, `the model got ${toModel.length} characters`);
    assert.match(toModel, /\[cut: this result held/);
  });

  test("a failure's card is capped too", async () => {
    const huge = 'e'.repeat(3 * RESULT_LIMITS.textPerResult);
    const { events } = await turn({ s__read: { readOnly: true, run: async () => Promise.reject(new Error(huge)) } }, [
      { name: 's__read', input: {}, id: 'toolu_f' },
    ]);
    const shown = events.find((e): e is Extract<ChatEvent, { kind: 'tool_result' }> => e.kind === 'tool_result')!;
    assert.equal(shown.isError, true);
    const shownBytes = shown.content.reduce((n, c) => n + (c.type === 'text' ? utf8Bytes(c.text) : 0), 0);
    assert.ok(shownBytes <= RESULT_LIMITS.textPerResult, `the card got ${shownBytes} bytes`);
  });
});

describe("an MCP App view's call takes the same path", () => {
  let ws: string;
  let store: string;
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'h-onepath-view-'));
    store = mkdtempSync(join(tmpdir(), 'h-onepath-git-'));
  });
  after(() => {
    rmSync(ws, { recursive: true, force: true });
    rmSync(store, { recursive: true, force: true });
  });

  test('a write a view asks for is approved and checkpointed, so Restore can undo it', async () => {
    writeFileSync(join(ws, 'board.txt'), 'before the view\n');
    const h = host({ app__save: { run: async () => (writeFileSync(join(ws, 'board.txt'), 'after the view\n'), text('saved')) } });
    const asked: ApprovalRequest[] = [];
    const checkpoints = new ShadowGit(join(store, 'checkpoints.git'), ws);
    const { session, events } = openTestChat(h, ws, { checkpoints, ask: async (r) => (asked.push(r), 'once') });
    try {
      const outcome = await session.callForApp(h.tools()[0]!, {}, new AbortController().signal);
      assert.equal(outcome.ok, true);
      assert.equal(asked.length, 1);
      assert.equal(asked[0]!.fromApp, true);
      assert.equal(readFileSync(join(ws, 'board.txt'), 'utf8'), 'after the view\n');
      const checkpoint = events.find((e): e is Extract<ChatEvent, { kind: 'checkpoint' }> => e.kind === 'checkpoint');
      assert.ok(checkpoint, 'the view call recorded a checkpoint');
      assert.deepEqual(checkpoint.files, ['board.txt']);
      assert.equal(session.checkpoint(checkpoint.turnId), checkpoint);
      const done = await checkpoints.restore(checkpoint.before, checkpoint.after);
      assert.deepEqual(done.restored, ['board.txt']);
      assert.equal(readFileSync(join(ws, 'board.txt'), 'utf8'), 'before the view\n');
    } finally {
      await session.close();
    }
  });
});
