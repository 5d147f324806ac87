import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages';
import { Models } from '@anthropic-ai/sdk/resources/models';

export * as ApiError from '@anthropic-ai/sdk/core/error';

/**
 * The Anthropic client with the two APIs the agent uses, Messages and Models, loaded on first use through
 * model-client.ts (import its types from there, never values from here). The SDK's own
 * `Anthropic` class attaches every resource it has (beta sessions, organisations, vaults, agent
 * toolsets…), so importing it puts them all in the bundle, several times what this class needs
 * (bench/README.md, `sizes`). Same transport, retries,
 * streaming and errors: only the resources are chosen.
 */
export class ModelClient extends BaseAnthropic {
  messages: Messages = new Messages(this);
  models: Models = new Models(this);
}
