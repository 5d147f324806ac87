import type Anthropic from '@anthropic-ai/sdk';

type Create = Anthropic['messages']['create'];

/**
 * The same client, waiting for `before` ahead of every model request. The agent loop (src/core/agent)
 * makes its requests itself; the orchestrator uses this to send a progress notification per model
 * call and to have the transcript on disk before each one, without changing the loop.
 */
export function withBeforeModelCall(client: Anthropic, before: () => void | Promise<void>): Anthropic {
  const create = (async (body: Parameters<Create>[0], options?: Parameters<Create>[1]) => {
    await before();
    return client.messages.create(body, options);
  }) as unknown as Create;
  const messages = Object.create(client.messages, { create: { value: create } }) as Anthropic['messages'];
  return Object.create(client, { messages: { value: messages } }) as Anthropic;
}
