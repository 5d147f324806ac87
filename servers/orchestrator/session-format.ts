import type { AgentCatalog } from './agent-definitions';
import type { RunResult } from './session-runner';
import type { SessionRecord } from './session-store';
import { oneLine } from './transcript-markdown';
import { costOf } from '../../src/core/usage/prices';
import { totalTokens } from './session-tokens';

/** A session as the JSON formats give it. */
export function sessionJson(r: SessionRecord): Record<string, unknown> {
  return {
    name: r.name,
    agent: r.agent,
    model: r.model,
    status: r.status,
    detail: r.detail,
    turns: r.turns,
    tokens: totalTokens(r.usage),
    usage: r.usage,
    cost_usd: costOf(r.model, r.usage),
    created: r.created,
    last_activity: r.lastActivity,
  };
}

export function sessionsMarkdown(records: SessionRecord[]): string {
  if (records.length === 0) return 'No sessions yet. start_agent starts one.';
  const rows = records.map((r) => `| ${r.name} | ${cell(r.agent)} | ${r.status} | ${r.turns} | ${totalTokens(r.usage)} | ${r.lastActivity} |`);
  return ['| session | agent | status | turns | tokens | last activity |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

export function agentsMarkdown(catalog: AgentCatalog): string {
  const lines = ['# Agents', ''];
  for (const a of catalog.agents) {
    const tools = a.allow.tools === undefined ? `all tools of ${[...a.allow.servers].join(', ') || 'no server'}` : [...a.allow.tools].join(', ') || 'none';
    lines.push(`## ${a.name}`, '', oneLine(a.description), '', `- Tools: ${tools}`, `- Model: ${a.model ?? 'the default'}`, `- From: ${a.source}`);
    for (const w of a.allow.warnings) lines.push(`- Note: ${w}`);
    lines.push('');
  }
  if (catalog.broken.length > 0) {
    lines.push('# Broken definitions', '');
    for (const b of catalog.broken) lines.push(`- ${b.file}: ${oneLine(b.why)}`);
  }
  return lines.join('\n').trimEnd();
}

export function agentsJson(catalog: AgentCatalog): Record<string, unknown> {
  return {
    agents: catalog.agents.map((a) => ({
      name: a.name,
      description: a.description,
      tools: a.allow.tools === undefined ? null : [...a.allow.tools],
      servers: [...a.allow.servers],
      model: a.model ?? null,
      source: a.source,
      warnings: a.allow.warnings,
    })),
    broken: catalog.broken,
  };
}

/** What start_agent and resume_agent answer: the sub-agent's reply, then how the turn went. */
export function runMarkdown(result: RunResult): string {
  const r = result.record;
  const lines = [result.reply.trim() || '_The sub-agent said nothing this turn._', '', '---'];
  lines.push(
    `Session ${r.name} (${r.agent}): ${r.status}${r.detail ? ` — ${oneLine(r.detail)}` : ''}; ${r.turns} turn(s), ${totalTokens(r.usage)} tokens so far.`,
  );
  for (const n of result.notes) lines.push('', oneLine(n));
  if (result.refusals.length > 0) {
    lines.push('', 'Tool calls refused without asking anyone:');
    for (const f of result.refusals) lines.push(`- ${f.tool} (${oneLine(f.reason)}): ${oneLine(f.why)}.`);
  }
  return lines.join('\n');
}

export function runJson(result: RunResult): Record<string, unknown> {
  return { reply: result.reply, session: sessionJson(result.record), refused: result.refusals, notes: result.notes };
}

function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}
