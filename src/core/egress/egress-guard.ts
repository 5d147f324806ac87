import type Anthropic from '@anthropic-ai/sdk';
import type { ApprovalStore } from '../tool-call/approval-policy';
import { runsCode, sandboxClaim } from '../tool-call/sandbox-status';
import type { HubTool } from '../mcp/types';
import { hostOf, hostsNamedIn, isUnder, urlsInInput } from './hosts';
import { SecretWatch } from './secret-signs';

/**
 * The egress guard: what may leave the machine without the person saying so.
 *
 * The approval policy asks before calls that change something; a call that only reads can still
 * carry data out (a page read with `fetch_url` tells the model to put `.env` in the query string of
 * the next `fetch_url`: every step reads). So, for every call of a tool that reaches the outside world
 * (MCP's `openWorldHint`, true unless the tool says false; code only when its sandbox lets it reach
 * the network), two rules:
 *
 * 1. **A new place asks.** Every URL in the call's arguments (at any depth, inside a command line too)
 *    must go to a host the person named in this chat (a URL or host name they typed, or a subdomain of
 *    one) or allowed before ("Always allow <host> in this workspace"). Anything else, which is any
 *    address the model composed or took from a page, asks first. Like Claude Code's WebFetch
 *    permission per domain, and stricter than the API's web_fetch rule (a URL that appeared in an
 *    earlier result may be followed): a page is untrusted and may hand the model any link.
 * 2. **A secret in the context asks, always.** Once the conversation holds signs of a secret (a call
 *    read `.env`, a key or a credential folder; a result looks like a key; secret-signs.ts), every
 *    outbound call asks, hosts allowed before included, with no "always": what is sent could carry it.
 *    The sign is read from the conversation itself, so it holds for the rest of the chat, across turns
 *    and after a restart, until it is no longer in what the model sees.
 *
 * What it does not do: it does not read what a tool sends to its own service (a `web_search` query goes
 * to the search API the person set up, an MCP server the person installed talks to its own backend);
 * rule 2 covers those once a secret is in play. It cannot see inside code that computes an address (the
 * run_code sandbox has no network unless the person turned it on). A server's own process is trusted
 * code: it is not held back, only the model's use of it.
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
  /** The hosts the call would reach that nobody vouched for (empty when only the secret rule asks). */
  hosts: string[];
  /** Why it asks, in the person's words. */
  why: string;
  /** False once a secret is in the context: no "always" is offered. */
  rememberable: boolean;
}

export interface EgressContext {
  /** What the person typed in this chat (never what a tool, a page, a server's prompt or the model said). */
  personText: () => readonly string[];
  /** Where "always allow <host>" answers are kept (the approval store, under hostKey()). */
  store: ApprovalStore;
}

export class EgressGuard {
  private readonly secrets = new SecretWatch();
  private namedCache: { texts: number; hosts: string[] } | undefined;

  constructor(private readonly context: EgressContext) {}

  /** The question to ask before this call, or undefined when it may go at once. */
  check(tool: HubTool, input: Record<string, unknown>, conversation: readonly Anthropic.MessageParam[]): EgressQuestion | undefined {
    if (!reachesOut(tool)) return undefined;
    const hosts = [...new Set(urlsInInput(input).flatMap((u) => hostOf(u) ?? []))];
    const sign = this.secrets.signIn(conversation);
    if (sign) {
      const where = hosts.length > 0 ? hosts.join(', ') : `${tool.server}'s service`;
      return {
        hosts,
        rememberable: false,
        why: `This chat holds what looks like a secret (${sign}), and this call sends data out of the machine, to ${where}: it could carry the secret. Asked every time while the secret is in the conversation.`,
      };
    }
    const unknown = hosts.filter((h) => !this.vouchedFor(h));
    if (unknown.length === 0) return undefined;
    return {
      hosts: unknown,
      rememberable: true,
      why: `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a host' : 'are not hosts'} you named in this chat or allowed before. The model chose this address (it may come from a page it read), and a URL can carry data out.`,
    };
  }

  /** Remembers "always allow" for these hosts in this workspace (the CLI: this run). */
  async allow(hosts: readonly string[]): Promise<void> {
    for (const host of hosts) await this.context.store.add(hostKey(host));
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
    if (this.namedCache?.texts !== texts.length) this.namedCache = { texts: texts.length, hosts: [...new Set(texts.flatMap(hostsNamedIn))] };
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
