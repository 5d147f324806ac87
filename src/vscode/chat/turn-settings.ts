import { newModelClient, type ModelClient } from '../../core/agent/model-client';
import { ModelCatalog } from '../../core/agent/model-catalog';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MODEL } from '../../core/agent/models';
import type { TurnConfig } from '../../core/chat/chat-session';
import type { Secrets } from '../secrets';
import { readSettings } from '../settings';

export const KEY_HINT = "Run 'MCP Agent: Set API Key' to store a valid key.";

/**
 * What a turn runs with, from the settings, the key in secret storage and the model's entry in
 * the Models API: read fresh for every turn, so a change applies to the next one.
 */
export class TurnSettings {
  /** The models the key can use, and the model a chat uses when none is chosen. */
  readonly models = new ModelCatalog(() => this.client());
  private autoModel = DEFAULT_MODEL;

  constructor(
    private readonly secrets: Secrets,
    /** Told which of a folder's settings were not used, and why. */
    private readonly warn?: (line: string) => void,
  ) {}

  /** Undefined without a key. The reply limit never exceeds the model's own. */
  async config(): Promise<TurnConfig | undefined> {
    const client = await this.client();
    if (!client) return undefined;
    const settings = readSettings(this.warn);
    const model = await this.models.resolve(settings.model);
    const entry = await this.models.entry(model);
    const limit = entry?.maxTokens;
    return {
      client,
      model,
      contextWindow: entry?.maxInputTokens ?? DEFAULT_CONTEXT_WINDOW,
      // Only a level the model's entry says it takes: another would be a 400 on every request.
      effort: settings.effort && entry?.efforts?.includes(settings.effort) ? settings.effort : undefined,
      maxTokens: limit ? Math.min(settings.maxTokens, limit) : settings.maxTokens,
      maxIterations: settings.maxIterations,
      toolTimeoutMs: settings.toolTimeoutMs,
      toolSearch: settings.toolSearch,
      keyHint: KEY_HINT,
    };
  }

  async client(): Promise<ModelClient | undefined> {
    const apiKey = await this.secrets.anthropicKey();
    return apiKey ? newModelClient({ apiKey, baseURL: readSettings().apiBaseUrl, maxRetries: 2 }) : undefined;
  }

  /** Reads the model list again (a new key may see other models) and what "automatic" means now. */
  async refreshModels(force = false): Promise<void> {
    await this.models.list(force);
    this.autoModel = await this.models.resolve(undefined);
  }

  /** The model the next turn uses: the one chosen, else the newest Sonnet. */
  get model(): string {
    return readSettings().model || this.autoModel;
  }
}
