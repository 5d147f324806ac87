import type { ApprovalStore } from '../tool-call/approval-policy';
import { runsCode, sandboxClaim } from '../tool-call/sandbox-status';
import type { CallToolResult, HubTool, ServerStatus } from '../mcp/types';
import { ChatLabels, type Carried } from './chat-labels';
import { destinationsIn } from './destinations';
import type { HandedLabels } from './labels';
import { hostsNamedIn, isUnder } from './named-hosts';
import { readWebUrl } from '../../node/web-address';

/**
 * The egress guard: what may leave the machine without the person saying so. It decides by where data came
 * from, not by what it looks like (after CaMeL's capabilities on values and FIDES's information-flow labels):
 * content is labelled as it enters the chat (labels.ts) and the labels are the chat's state (chat-labels.ts).
 *
 * For every call that can reach beyond the machine (a tool that does not declare `openWorldHint: false`, code
 * whose sandbox has network, any call to a remote server, a resource read on one), three rules, one question:
 *
 * 1. **A secret in the chat asks, always.** While the chat holds anything from a secret source, every outbound
 *    call asks, hosts allowed before included, with no "always": what is sent could carry it.
 * 2. **Private content leaving asks.** A call whose arguments carry text that came from the workspace, a
 *    server or a secret source (found by content, in every encoding the guard can reverse) asks, and the card
 *    says which data would go where, even to a host the person named.
 * 3. **A new place asks.** Every place the call would reach (destinations.ts reads them exactly as the tools'
 *    own URL parser does, at any depth, decoded) must be a host the person named in this chat, one they
 *    allowed before ("Always allow <host>"), or the remote server they set up. A redirect to another host is
 *    a new call (fetch_url does not follow it), so it is a new place too.
 *
 * What it cannot see: what a tool sends to its own service besides its arguments (a server the person
 * installed talks to its backend), and an address code computes while it runs (run_code has no network unless
 * the person turned it on). A server's own process is trusted code; only the model's use of it is guarded.
 */

/** The prefix of an "always allow this host" answer in the approval store (so one reset forgets both kinds). */
const HOST_KEY = 'egress/';

export function hostKey(host: string): string {
  return `${HOST_KEY}${host}`;
}

export function isHostKey(key: string): boolean {
  return key.startsWith(HOST_KEY);
}

/** What the person is asked about data leaving the machine. */
export interface EgressQuestion {
  /** The hosts the call would reach that nobody vouched for (empty when only the secret or content rule asks). */
  hosts: string[];
  /** Why it asks, in the person's words. */
  why: string;
  /** False while a secret is in the chat or private content would leave: no "always" is offered. */
  rememberable: boolean;
  /** What the call would carry out, and from where ("text from src/app.ts"). */
  carries?: string;
  /** How each place was spelled in the call (what the person judges). */
  spelled: string[];
}

export interface EgressContext {
  /** What the person typed in this chat (never what a tool, a page, a server's prompt or the model said). */
  personText: () => readonly string[];
  /** Where "always allow <host>" answers are kept (the approval store, under hostKey()). */
  store: ApprovalStore;
  /** The chat's labels (its state); absent: labels for this guard's life only. */
  labels?: ChatLabels;
  /** The servers' states: which are remote, and where. */
  servers?: () => readonly ServerStatus[];
  /** A parent chat's labels, for a sub-agent's guard: its secrets hold here too, its named hosts count. */
  handed?: HandedLabels;
}

/** The host's own tools that act on another server (read_mcp_resource): their call reaches that server. */
const HOST_TOOLS_SERVER = 'mcp-agent';

export class EgressGuard {
  readonly labels: ChatLabels;
  private namedCache: { texts: number; hosts: string[] } | undefined;

  constructor(private readonly context: EgressContext) {
    this.labels = context.labels ?? new ChatLabels();
    if (context.handed) this.labels.noteHanded({ secrets: context.handed.secrets, private: context.handed.private }, 'the chat that started this agent');
  }

  /** The question to ask before this call, or undefined when it may go at once. */
  check(tool: HubTool, input: Record<string, unknown>): EgressQuestion | undefined {
    const remote = this.remoteEndpoint(tool, input);
    if (!reachesOut(tool) && remote === undefined) return undefined;
    const { destinations, truncated } = destinationsIn(input);
    const where = (hosts: readonly string[]): string => (hosts.length > 0 ? hosts.join(', ') : (remote ?? `${tool.server}'s service`));
    const all = [...new Set([...destinations.map((d) => d.host), ...(remote ? [remote] : [])])];
    const spelled = destinations.map((d) => d.spelled);
    const carried = this.carriedBy(input);
    const carries = carried ? `${carried.secret ? 'a secret value' : 'text'} from ${carried.source} (${carried.excerpt})` : undefined;
    const secrets = this.labels.secrets();
    if (secrets.length > 0) {
      const what = carries ? `It carries ${carries} to ${where(all)}.` : `It sends data to ${where(all)}, which could carry it.`;
      return {
        hosts: all,
        spelled,
        rememberable: false,
        ...(carries ? { carries } : {}),
        why: `This chat holds a secret (${secrets[0]}${secrets.length > 1 ? ` and ${secrets.length - 1} more` : ''}). ${what} Asked every time while the chat holds a secret; clearing the chat clears it.`,
      };
    }
    const unknown = destinations.filter((d) => d.host !== remote && !this.vouchedFor(d.host)).map((d) => d.host);
    const notes: string[] = [];
    if (unknown.length > 0)
      notes.push(
        `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a host' : 'are not hosts'} you named in this chat or allowed before. The model chose this address (it may come from a page it read), and an address can carry data out.`,
      );
    if (carries) notes.push(`It would send ${carries} to ${where(all)}.`);
    if (truncated) notes.push('Its arguments are too long for the guard to read whole.');
    if (notes.length === 0) return undefined;
    return { hosts: unknown, spelled, rememberable: !carries && !truncated, ...(carries ? { carries } : {}), why: notes.join(' ') };
  }

  /** Content that came back from a call (or its error), labelled by where it came from. */
  observe(tool: HubTool, input: Record<string, unknown>, text: string, failed: boolean, result?: CallToolResult): void {
    this.labels.noteCall(tool, input, text, failed, result);
  }

  /** What a sub-agent started from this chat is handed: the chat's secrets and the hosts the person named. */
  handDown(): HandedLabels {
    return this.labels.handed(this.named());
  }

  /** Remembers "always allow" for these hosts in this workspace (the CLI: this run). */
  async allow(hosts: readonly string[]): Promise<void> {
    for (const host of hosts) await this.context.store.add(hostKey(host));
  }

  private carriedBy(input: Record<string, unknown>): Carried | undefined {
    for (const value of stringsIn(input)) {
      const url = readWebUrl(value.trim());
      // A link followed as written is no leak of the page it was found in: for a URL, what it carries is its query.
      const carried = this.labels.carried(url ? decodeSafely(`${url.username}:${url.password} ${url.search} ${url.hash}`) : value);
      if (carried) return carried;
    }
    return undefined;
  }

  /** The host of the remote server a call goes to (its own tools, or a resource read on it), if remote. */
  private remoteEndpoint(tool: HubTool, input: Record<string, unknown>): string | undefined {
    const server = tool.server === HOST_TOOLS_SERVER && typeof input.server === 'string' ? input.server : tool.server;
    return this.context.servers?.().find((s) => s.name === server)?.endpoint;
  }

  private vouchedFor(host: string): boolean {
    if (this.named().some((n) => isUnder(host, n))) return true;
    // "Always allow example.com" vouches for its subdomains too, as naming it does; an address only for itself.
    if (/^[\d.]+$|:/.test(host)) return this.context.store.has(hostKey(host));
    const labels = host.split('.');
    return labels.some((_, i) => this.context.store.has(hostKey(labels.slice(i).join('.'))));
  }

  private named(): string[] {
    const texts = this.context.personText();
    if (this.namedCache?.texts !== texts.length)
      this.namedCache = { texts: texts.length, hosts: [...new Set([...texts.flatMap(hostsNamedIn), ...(this.context.handed?.named ?? [])])] };
    return this.namedCache.hosts;
  }
}

/** Whether a tool's call can reach beyond the machine: MCP says tools can unless they declare openWorldHint false. */
export function reachesOut(tool: Pick<HubTool, 'tool'>): boolean {
  if (tool.tool.annotations?.openWorldHint === false) return false;
  // Code in a sandbox without network reaches nothing; the claim is the server's (sandbox-status.ts).
  if (runsCode(tool) && sandboxClaim(tool)?.network === false) return false;
  return true;
}

/** Every string in a call's input, keys too, at any depth. */
function stringsIn(input: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) stack.push(...v);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        stack.push(x);
      }
  }
  return out;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
