import type { ModelClient } from './model-client';
import type Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_MODEL } from './models';
import { messageOf } from '../../node/error-message';

/** What the Models API says of one model, as the picker and the agent need it. */
export interface ModelEntry {
  id: string;
  name: string;
  lifecycle: 'active' | 'deprecated' | 'retired';
  line: string | null;
  createdAt: string;
  /** When a deprecated model is scheduled to stop working (ISO date). */
  retiresAt: string | null;
  /** Its context window, and the most a reply may be; null when the API does not say. */
  maxInputTokens: number | null;
  maxTokens: number | null;
  /** The effort levels it accepts (`output_config.effort`); undefined when the API does not say. */
  efforts?: string[];
}

const FRESH_MS = 10 * 60 * 1000;

/**
 * The models the API key can use, from the Models API (every page), kept for ten minutes. A failure
 * (no key, an API without the endpoint, offline) leaves the list empty: the agent then runs on the
 * configured or default model and its own limits, never blocked by the list.
 */
export class ModelCatalog {
  private cached: { at: number; models: ModelEntry[] } | undefined;
  private loading: Promise<ModelEntry[]> | undefined;
  /** The last error, for a picker to say why it has nothing to offer. */
  lastError: string | undefined;

  constructor(private readonly client: () => Promise<ModelClient | undefined>) {}

  async list(force = false): Promise<ModelEntry[]> {
    if (!force && this.cached && Date.now() - this.cached.at < FRESH_MS) return this.cached.models;
    this.loading ??= this.fetch().finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** The entry of one model id, if the API lists it. */
  async entry(id: string): Promise<ModelEntry | undefined> {
    return (await this.list()).find((m) => m.id === id);
  }

  /** An explicit choice wins; otherwise the newest active Sonnet the API lists, or the built-in default. */
  async resolve(chosen: string | undefined): Promise<string> {
    if (chosen?.trim()) return chosen.trim();
    return newestSonnet(await this.list()) ?? DEFAULT_MODEL;
  }

  private async fetch(): Promise<ModelEntry[]> {
    const client = await this.client();
    if (!client) {
      this.lastError = 'No API key is set.';
      return [];
    }
    try {
      const models: ModelEntry[] = [];
      for await (const m of client.models.list({ limit: 100 })) models.push(toEntry(m));
      this.cached = { at: Date.now(), models };
      this.lastError = undefined;
      return models;
    } catch (err) {
      this.lastError = messageOf(err);
      return this.cached?.models ?? [];
    }
  }
}

function toEntry(m: Anthropic.ModelInfo): ModelEntry {
  return {
    id: m.id,
    name: m.display_name,
    lifecycle: m.lifecycle ?? 'active',
    line: m.line ?? null,
    createdAt: m.created_at,
    retiresAt: m.retires_at ?? null,
    maxInputTokens: m.max_input_tokens ?? null,
    maxTokens: m.max_tokens ?? null,
    efforts: effortsOf(m.capabilities),
  };
}

function effortsOf(c: Anthropic.ModelCapabilities | null | undefined): string[] | undefined {
  if (!c?.effort) return undefined;
  if (!c.effort.supported) return [];
  const levels = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
  return levels.filter((l) => (c.effort[l] as { supported?: boolean } | null)?.supported === true);
}

/** What a picker offers: active models newest first, then deprecated ones; retired ones are gone. */
export function pickable(models: readonly ModelEntry[]): ModelEntry[] {
  const newest = (a: ModelEntry, b: ModelEntry): number => b.createdAt.localeCompare(a.createdAt);
  return [...models.filter((m) => m.lifecycle === 'active').sort(newest), ...models.filter((m) => m.lifecycle === 'deprecated').sort(newest)];
}

function newestSonnet(models: readonly ModelEntry[]): string | undefined {
  return pickable(models).find((m) => m.lifecycle === 'active' && m.line === 'sonnet')?.id;
}

/** "1M context · 128k output", "deprecated: retires 30 Nov 2026". */
export function modelDetail(m: ModelEntry): string {
  const size = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${Math.round(n / 1000)}k`);
  const parts: string[] = [];
  if (m.maxInputTokens) parts.push(`${size(m.maxInputTokens)} context`);
  if (m.maxTokens) parts.push(`${size(m.maxTokens)} output`);
  if (m.lifecycle === 'deprecated') parts.push(m.retiresAt ? `deprecated: retires ${m.retiresAt.slice(0, 10)}` : 'deprecated');
  return parts.join(' · ');
}
