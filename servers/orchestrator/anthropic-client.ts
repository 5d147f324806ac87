import type Anthropic from '@anthropic-ai/sdk';
import type { OrchestratorConfig } from './config';

/**
 * The Anthropic client, made on first use: the SDK is most of this bundle, and a client that only
 * lists sessions (or a host starting its servers) should not wait for it. Undefined without a key.
 */
export function lazyClient(config: Pick<OrchestratorConfig, 'apiKey' | 'baseURL'>): () => Promise<Anthropic | undefined> {
  let client: Promise<Anthropic> | undefined;
  return () => {
    if (!config.apiKey) return Promise.resolve(undefined);
    client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk({ apiKey: config.apiKey, baseURL: config.baseURL }));
    return client;
  };
}
