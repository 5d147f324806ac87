import * as z from 'zod';
import type { HubTool } from '../mcp/types';

/** Where a server says whether its code-running tool is inside an OS sandbox (the workspace server's run_code). */
const SANDBOX_META_KEY = 'mcpAgent/sandbox';

/**
 * The claim as published: `{ available, kind, network, detail }`. Read leniently (older servers
 * publish nothing, newer ones may add kinds) but never trusted beyond what it says: it only
 * changes what the person is told, not whether they are asked.
 */
const sandboxMetaSchema = z.object({
  available: z.boolean(),
  kind: z
    .string()
    .max(40)
    .regex(/^[\w.-]+$/)
    .optional(),
  network: z.boolean().optional(),
  detail: z.string().optional(),
});
export type SandboxClaim = z.infer<typeof sandboxMetaSchema>;

/** The tool's sandbox claim, or undefined when it publishes none or one that does not parse. */
export function sandboxClaim(tool: Pick<HubTool, 'tool'>): SandboxClaim | undefined {
  const meta = tool.tool._meta;
  if (!meta || typeof meta !== 'object') return undefined;
  const parsed = sandboxMetaSchema.safeParse((meta as Record<string, unknown>)[SANDBOX_META_KEY]);
  return parsed.success ? parsed.data : undefined;
}

/** True for a tool that runs arbitrary code: such a tool can change any file, sensitive ones included. */
export function runsCode(tool: Pick<HubTool, 'tool'>): boolean {
  return tool.tool.name === 'run_code' || (tool.tool._meta !== undefined && SANDBOX_META_KEY in tool.tool._meta);
}

export interface SandboxWords {
  /** Set when the code may run with the person's own access: shown as a warning. */
  warning?: string;
  /** Set when it runs sandboxed: a short line. */
  note?: string;
  /** The gist in a few words, for a card read at a glance in a narrow side bar (the lines above are its details). */
  summary: string;
}

const UNSANDBOXED = 'this code runs with your access to your files and network.';

/** What the approval card and the CLI prompt say about the sandbox of a code-running tool. */
export function describeSandbox(tool: Pick<HubTool, 'server' | 'tool'>): SandboxWords {
  const claim = sandboxClaim(tool);
  const detail = claim?.detail ? ` ${oneLine(claim.detail)}` : '';
  if (!claim) {
    return {
      summary: 'Sandbox unknown: assume full access.',
      warning: `Sandbox status unknown: the ${tool.server} server does not say whether code runs in an OS sandbox, so assume ${UNSANDBOXED}`,
    };
  }
  if (!claim.available || claim.kind === 'none') {
    // The bundled server's sentence already opens with this and says what it means; don't say it twice.
    const summary = 'No OS sandbox: full access.';
    if (/^ No OS sandbox\b/i.test(detail)) return { summary, warning: detail.trim() };
    return { summary, warning: `No OS sandbox: ${UNSANDBOXED}${detail}` };
  }
  const network = claim.network === undefined ? 'network access unknown' : claim.network ? 'network on' : 'network off';
  return { summary: `Sandboxed, ${network}.`, note: `Sandboxed${claim.kind ? ` (${claim.kind})` : ''}, ${network}.${detail}` };
}

/** A server's sentence, as one line of plain text of a sensible length. */
function oneLine(text: string): string {
  const flat = text.replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}
