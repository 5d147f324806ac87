import type { GetPromptResult } from '@modelcontextprotocol/client';
import { escapeControls as printable } from './escape';
import type { McpHub } from '../core/mcp/hub/hub';
import { runSlash, type SlashTools } from '../core/chat/slash-commands';

/** What the REPL's slash commands act on. */
export interface SlashContext {
  hub: McpHub;
  /** The tools as the chat's model sees them. */
  tools: SlashTools;
  line(text: string): void;
  model(): string;
  /** The models the key can use, for /model without a name. */
  models(): Promise<Array<{ id: string; name: string }>>;
  setModel(model: string): void;
  /** Starts a new conversation. */
  clear(): Promise<void>;
  /** Shows a prompt's messages and asks whether to send, edit or drop it: what to send, or undefined. */
  reviewPrompt(ref: string, result: GetPromptResult): Promise<GetPromptResult | undefined>;
  /** Asks a question on the terminal (a prompt's arguments): the answer, or undefined once input has ended. */
  ask(prompt: string): Promise<string | undefined>;
  /** Runs a turn with a prompt's messages (what /prompt does once reviewed). */
  sendPrompt(prompt: { server: string; name: string; args: Record<string, string>; result: GetPromptResult }): Promise<void>;
}

/**
 * The REPL's slash commands: parsing, checks and listings are src/core's (shared with the chat
 * composer); here is what the terminal does with them. Returns the text to send to the model
 * instead, or undefined when the line was a command (known or not).
 */
export function slashCommand(text: string, ctx: SlashContext): Promise<string | undefined> {
  return runSlash(text, {
    hub: ctx.hub,
    tools: ctx.tools,
    say: (lines) => lines.forEach((l) => ctx.line(printable(l))),
    clear: async () => {
      await ctx.clear();
      ctx.line('[new conversation]');
    },
    model: async (chosen) => {
      if (chosen) {
        ctx.setModel(chosen);
        ctx.line(`[model: ${printable(chosen)}]`);
        return;
      }
      ctx.line(`model: ${printable(ctx.model())}`);
      for (const m of await ctx.models()) ctx.line(`  ${printable(m.id)}  ${printable(m.name)}`);
    },
    resource: async (server, uri) => {
      const result = await ctx.hub.readResource(server, uri);
      for (const c of result.contents) {
        if ('text' in c) ctx.line(printable(c.text));
        else ctx.line(`[${printable(c.mimeType ?? 'binary')} content, ${Math.floor((c.blob.length * 3) / 4)} bytes]`);
      }
    },
    prompt: async (server, name, given, missing) => {
      const ref = `${server}/${name}`;
      const args = await promptArguments(ctx, server, name, given, missing);
      if (!args) return;
      const reviewed = await ctx.reviewPrompt(ref, await ctx.hub.getPrompt(server, name, args));
      if (reviewed) await ctx.sendPrompt({ server, name, args, result: reviewed });
    },
  });
}

/**
 * A prompt's arguments: with none typed, each one it declares is asked (Enter leaves an optional one
 * out), as the seed's `/use-prompt <name>` expects; with some typed, only the required ones missing.
 * Undefined (said why) when a required one gets no answer.
 */
async function promptArguments(
  ctx: SlashContext,
  server: string,
  name: string,
  given: Record<string, string>,
  missing: string[],
): Promise<Record<string, string> | undefined> {
  const declared = ctx.hub.status(server)?.prompts.find((p) => p.name === name)?.arguments ?? [];
  const asked = Object.keys(given).length === 0 ? declared : declared.filter((a) => missing.includes(a.name));
  const args = { ...given };
  for (const arg of asked) {
    const about = arg.description ? ` (${firstLine(arg.description)})` : '';
    const answer = await ctx.ask(printable(`${arg.name}${about}${arg.required ? '' : ' [optional, Enter to leave out]'}: `));
    const value = answer?.trim() ?? '';
    if (value) args[arg.name] = value;
    else if (arg.required) {
      ctx.line(`[prompt ${printable(`${server}/${name}`)} not sent: ${printable(arg.name)} is required]`);
      return undefined;
    }
  }
  return args;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}
