import * as vscode from 'vscode';

export interface AgentSettings {
  /** The model the person chose; empty: the newest active Sonnet the Models API lists. */
  model: string;
  apiBaseUrl: string | undefined;
  maxIterations: number;
  /** `output_config.effort` for models that take it; '' leaves it to the model. */
  effort: '' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  maxTokens: number;
  toolTimeoutMs: number;
  runCodeMaxTimeoutSeconds: number;
  /** run_code's sandbox lets the code reach the network (a user setting only: a workspace cannot turn it on). */
  runCodeNetwork: boolean;
}

/** The `mcpAgent.*` settings, read fresh each time so changes apply to the next turn. */
export function readSettings(): AgentSettings {
  const c = vscode.workspace.getConfiguration('mcpAgent');
  const base = c.get<string>('apiBaseUrl', '').trim();
  return {
    model: c.get<string>('model', '').trim(),
    apiBaseUrl: base || process.env.ANTHROPIC_BASE_URL || undefined,
    maxIterations: Math.max(1, c.get<number>('maxIterations', 10)),
    effort: (['low', 'medium', 'high', 'xhigh', 'max'] as const).find((e) => e === c.get<string>('effort', '')) ?? '',
    maxTokens: Math.max(256, c.get<number>('maxTokens', 8192)),
    toolTimeoutMs: Math.max(1, c.get<number>('toolTimeoutSeconds', 120)) * 1000,
    runCodeMaxTimeoutSeconds: Math.max(1, c.get<number>('runCodeMaxTimeoutSeconds', 120)),
    runCodeNetwork: c.get<boolean>('runCodeNetwork', false) === true,
  };
}
