import * as vscode from 'vscode';
import { decide, effortRank, EFFORTS, numberRank, type EffortSetting, type FolderRule } from '../core/settings/folder-settings';
import { TOOL_SEARCH_SETTINGS, type ToolSearchSetting } from '../core/tool-offer/tool-search-mode';

export interface AgentSettings {
  /** The model the person chose; empty: the newest active Sonnet the Models API lists. */
  model: string;
  apiBaseUrl: string | undefined;
  maxIterations: number;
  /** `output_config.effort` for models that take it; '' leaves it to the model. */
  effort: EffortSetting;
  maxTokens: number;
  toolTimeoutMs: number;
  /** How long a server is given to answer initialize on its first try (its config's `startTimeout` wins). */
  serverStartTimeoutMs: number;
  runCodeMaxTimeoutSeconds: number;
  /** run_code's sandbox lets the code reach the network (a user setting only: a workspace cannot turn it on). */
  runCodeNetwork: boolean;
  /** How tools past the definition budget are found: the API's tool search, the host's, or `auto`. */
  toolSearch: ToolSearchSetting;
}

/** The log line of each folder value that was not used, said once per value (settings are read every turn). */
const said = new Set<string>();

/**
 * What `inspect()` reports at run time beyond its declared type: the User settings of the window's side and, in a
 * remote window (code-server, Remote-SSH, WSL, containers), the remote's Machine settings on their own.
 */
interface UserLayers {
  globalValue?: unknown;
  globalLocalValue?: unknown;
  globalRemoteValue?: unknown;
}

/**
 * The person's own value of `mcpAgent.<key>`: their User settings or, in a remote window, the remote's Machine
 * settings; never a folder's or a workspace file's. The one place a setting that only the person may choose is
 * read. Such settings are `application`-scoped, so the editor itself keeps them out of folder settings and reads
 * them from the User settings in every kind of window; a `machine`-scoped one would count only in the remote's
 * Machine settings there, and the person's endpoint would silently not be used.
 */
export function ownSetting(key: string): unknown {
  const i = vscode.workspace.getConfiguration('mcpAgent').inspect<unknown>(key) as UserLayers | undefined;
  return i?.globalValue ?? i?.globalRemoteValue ?? i?.globalLocalValue;
}

/**
 * The `mcpAgent.*` settings, read fresh each time so changes apply to the next turn. Each is read
 * under its rule (core/settings/folder-settings.ts): where the key and the conversation go
 * (`apiBaseUrl`, `model`) and what may reach the network come from the person's own settings only;
 * limits that decide what a turn costs may be lowered by a folder, never raised. `get()` is never
 * used: it lets a folder's value win.
 */
export function readSettings(log?: (line: string) => void): AgentSettings {
  const c = vscode.workspace.getConfiguration('mcpAgent');
  const trusted = vscode.workspace.isTrusted;
  const read = <T>(key: string, rule: FolderRule, fallback: T, rank: (v: T) => number, valid: (v: unknown) => v is T): T => {
    const i = c.inspect<unknown>(key);
    const own = (v: unknown): T | undefined => (valid(v) ? v : undefined);
    const decided = decide(
      `mcpAgent.${key}`,
      rule,
      { person: own(ownSetting(key)), folder: [i?.workspaceValue, i?.workspaceFolderValue].map(own), fallback },
      trusted,
      rank,
    );
    if (decided.ignored && !said.has(decided.ignored)) {
      said.add(decided.ignored);
      log?.(decided.ignored);
    }
    return decided.value;
  };
  const isString = (v: unknown): v is string => typeof v === 'string';
  const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const isEffort = (v: unknown): v is EffortSetting => v === '' || (EFFORTS as readonly unknown[]).includes(v);
  const base = read('apiBaseUrl', 'person', '', () => 0, isString).trim();
  return {
    model: read('model', 'person', '', () => 0, isString).trim(),
    apiBaseUrl: base || process.env.ANTHROPIC_BASE_URL || undefined,
    maxIterations: Math.max(1, read('maxIterations', 'lower', 10, numberRank, isNumber)),
    effort: read('effort', 'lower', '' as EffortSetting, effortRank, isEffort),
    maxTokens: Math.max(256, read('maxTokens', 'lower', 8192, numberRank, isNumber)),
    toolTimeoutMs: Math.max(1, read('toolTimeoutSeconds', 'lower', 120, numberRank, isNumber)) * 1000,
    serverStartTimeoutMs: Math.min(3600, Math.max(1, read('serverStartTimeoutSeconds', 'lower', 15, numberRank, isNumber))) * 1000,
    runCodeMaxTimeoutSeconds: Math.max(1, read('runCodeMaxTimeoutSeconds', 'lower', 120, numberRank, isNumber)),
    runCodeNetwork: read(
      'runCodeNetwork',
      'person',
      false,
      () => 0,
      (v): v is boolean => typeof v === 'boolean',
    ),
    toolSearch: read(
      'toolSearch',
      'person',
      'auto' as ToolSearchSetting,
      () => 0,
      (v): v is ToolSearchSetting => (TOOL_SEARCH_SETTINGS as readonly unknown[]).includes(v),
    ),
  };
}
