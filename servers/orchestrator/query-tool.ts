import type Anthropic from '@anthropic-ai/sdk';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { promptTokens } from '../../src/core/usage/token-usage';
import { errorResult, guarded, textResult } from '../lib/results';
import { KEY_HINT, type QueryConfig } from './config';
import type { GeneralLog } from './general-log';
import type { QuerySessions } from './query-sessions';

/**
 * The claude-agent seed's `query`: Claude answers a prompt, with the conversation so far when a
 * session id is given (sessions in memory, see QuerySessions). No tools: it is Claude as a second
 * opinion, not a sub-agent (start_agent is that).
 */
export function registerQueryTool(
  server: McpServer,
  config: QueryConfig,
  sessions: QuerySessions,
  client: () => Promise<Anthropic | undefined>,
  log: GeneralLog,
): void {
  server.registerTool(
    'query',
    {
      title: 'Ask Claude',
      description:
        'Sends a prompt to Claude and returns its answer, with the session id and the token usage. Without sessionId a ' +
        'new conversation starts; pass the returned sessionId to continue it (an unknown or expired id starts a new one).',
      inputSchema: {
        prompt: z.string().min(1).max(200_000).describe('What to ask Claude'),
        sessionId: z.string().max(200).optional().describe('The sessionId of an earlier answer, to continue that conversation'),
      },
      annotations: { title: 'Ask Claude', readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(
      'query',
      async ({ prompt, sessionId }, extra) => {
        const anthropic = await client();
        if (!anthropic) return errorResult(`query needs an Anthropic API key. ${KEY_HINT}`);
        const session = config.conversations ? sessions.open(sessionId) : undefined;
        if (session?.isNew && sessionId) log.info(`Session ${sessionId.slice(0, 40)} not found, creating new session`);
        const question: Anthropic.MessageParam = { role: 'user', content: prompt };
        const { askClaude } = await import('./query-call');
        log.info('Sending query to Claude', { model: config.model, sessionId: session?.id ?? 'none', historyLength: session?.history.length ?? 0 });
        const outcome = await askClaude(anthropic, config, [...(session?.history ?? []), question], extra.signal);
        if (!outcome.ok) {
          log.error('Error handling query', { sessionId: session?.id ?? 'none', error: outcome.message });
          return errorResult(outcome.message);
        }
        const { answer } = outcome;
        // The seed's two numbers: every input token (however the cache billed it) and the output.
        const usage = { input_tokens: promptTokens(outcome.usage), output_tokens: outcome.usage.output };
        if (session) sessions.record(session.id, question, { role: 'assistant', content: answer || '(no answer)' });
        log.info('Query completed successfully', { sessionId: session?.id ?? 'none', ...usage });
        const renewed = session?.isNew && sessionId ? ` (a new session: "${sessionId.slice(0, 40)}" is unknown or expired)` : '';
        const footer = [
          '',
          '---',
          session ? `Session ID: ${session.id}${renewed}` : 'Conversations are off (CLAUDE_ENABLE_CONVERSATIONS=false): no session.',
          `Tokens: ${usage.input_tokens} input, ${usage.output_tokens} output`,
        ];
        return textResult(`${answer}\n${footer.join('\n')}`, {
          answer,
          ...(session ? { sessionId: session.id } : {}),
          usage,
        });
      },
      { heartbeat: true },
    ),
  );
}
