import { MAX_SECONDS } from '../../node/long-running';
import type { HubTool } from '../mcp/types';
import type { ApprovalNeed } from './approval-policy';
import type { ProposedEdit } from './proposed-edit';

/** The host's cap on a whole call, or the longer time a tool declares for its work (MAX_SECONDS). */
export function totalTimeout(tool: HubTool, capMs: number | undefined): number | undefined {
  const declared = Number(tool.tool._meta?.[MAX_SECONDS]);
  if (capMs === undefined || !Number.isFinite(declared) || declared <= 0) return capMs;
  return Math.max(capMs, Math.min(declared, 24 * 3600) * 1000);
}

/** The card says what the write does: a new file, or how much of an existing one it replaces. */
export function withEdit(need: ApprovalNeed, edit: ProposedEdit): ApprovalNeed {
  if (!need.ask) return need;
  return {
    ...need,
    notes: edit.overwrites ? need.notes : [...need.notes, edit.summary],
    warnings: edit.overwrites ? [...need.warnings, edit.summary] : need.warnings,
  };
}

/** A tool that says it only reads (and nothing says otherwise) cannot need a checkpoint. */
export function readOnlyTool(tool: HubTool): boolean {
  const a = tool.tool.annotations ?? {};
  return a.readOnlyHint === true && a.destructiveHint !== true;
}
