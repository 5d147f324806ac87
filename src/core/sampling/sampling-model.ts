import type { ModelPreferences } from '@modelcontextprotocol/client';
import { pickable, type ModelEntry } from '../agent/model-catalog';

/**
 * The model a sampling request runs on, from the server's `modelPreferences` among the models the key can
 * use: the first hint that names (part of) an available model's id or line wins; else the priorities
 * choose a line (intelligence: opus, speed or cost: haiku); else `fallback` (the chat's own model).
 * Hints are advisory (spec): one naming nothing available is passed over, never an error.
 */
export function pickSamplingModel(prefs: ModelPreferences | undefined, models: readonly ModelEntry[], fallback: string): string {
  const available = pickable(models).filter((m) => m.lifecycle === 'active');
  if (available.length === 0) return fallback;
  for (const hint of prefs?.hints ?? []) {
    const name = hint.name?.trim().toLowerCase();
    if (!name) continue;
    const hit = available.find((m) => m.id.toLowerCase().includes(name) || m.line === name);
    if (hit) return hit.id;
  }
  const intelligence = prefs?.intelligencePriority ?? 0;
  const fast = Math.max(prefs?.speedPriority ?? 0, prefs?.costPriority ?? 0);
  const line = intelligence > 0.5 && intelligence >= fast ? 'opus' : fast > 0.5 ? 'haiku' : undefined;
  const byLine = line ? available.find((m) => m.line === line) : undefined;
  if (byLine) return byLine.id;
  return fallback;
}
