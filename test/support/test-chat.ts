// A chat as the extension opens one, for tests and the bench that drive real turns through a hub's tools: a new
// chat in `<dir>/chats`, and every call the person would be asked about allowed once.
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { ChatHistory } from '../../src/core/chat/chat-history';
import { newChatId, newMeta } from '../../src/core/chat/chat-meta';
import { ChatSession, type ChatSessionDeps, type TurnConfig } from '../../src/core/chat/chat-session';
import type { ToolHost } from '../../src/core/agent/types';
import type { ChatEvent } from '../../src/common/protocol';
import { memoryStore } from '../fakes/tool-host';

const TEST_MODEL = 'claude-sonnet-5-5';

/** A new chat on `host`'s tools in `dir`, with every event it records, in order. */
export function openTestChat(host: ToolHost, dir: string, deps: Partial<ChatSessionDeps> = {}): { session: ChatSession; events: ChatEvent[] } {
  const history = new ChatHistory(join(dir, 'chats'));
  const meta = newMeta(newChatId(), TEST_MODEL);
  const session = new ChatSession({
    meta,
    store: history.store(meta.id),
    host,
    workspace: dir,
    approvals: memoryStore(),
    ask: async () => 'once',
    ...deps,
  });
  const events: ChatEvent[] = [];
  session.on('event', (e) => events.push(e));
  return { session, events };
}

/** What a test's turn runs with: the fake API's client, a small reply limit, and whatever the test changes. */
export function testTurn(client: Anthropic, change: Partial<TurnConfig> = {}): TurnConfig {
  return { client, model: TEST_MODEL, maxTokens: 1024, maxIterations: 3, toolTimeoutMs: 20_000, keyHint: '', ...change };
}
