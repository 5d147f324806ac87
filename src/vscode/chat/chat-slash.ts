import * as vscode from 'vscode';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { McpHub } from '../../core/mcp/hub/hub';
import { runSlash, type SlashTools } from '../../core/chat/slash-commands';
import { resourceRef } from '../../core/chat/attachments';

export interface ChatSlashDeps {
  hub: McpHub;
  /** The tools as the chat's model sees them, and the person's choices. */
  tools: SlashTools;
  /** Shows a command's answer in the chat (a listing, not sent to the model). */
  say(lines: string[]): void;
  newChat(): Promise<void>;
  /** Puts a chip on the next message. */
  attach(ref: string, label: string): void;
  sendPrompt(prompt: { server: string; name: string; args: Record<string, string>; result: GetPromptResult }): Promise<void>;
}

/**
 * The composer's slash commands, as the chat does them (the parsing, checks and listings are
 * src/core's, shared with the terminal): `/resource` attaches a chip, `/prompt` with required
 * arguments missing goes through the Prompts view's own command, which asks for them, `/model` opens the picker or sets the model.
 */
export async function chatSlash(text: string, deps: ChatSlashDeps): Promise<void> {
  const unsent = await runSlash(text, {
    hub: deps.hub,
    tools: deps.tools,
    say: (lines) => deps.say(lines),
    clear: () => deps.newChat(),
    model: async (name) => {
      if (!name) {
        await vscode.commands.executeCommand('mcpAgent.pickModel');
        return;
      }
      if (!/^[A-Za-z0-9._:@[\]-]{1,200}$/.test(name)) {
        deps.say([`"${name}" is not a model id; /model alone opens the picker`]);
        return;
      }
      await vscode.workspace.getConfiguration('mcpAgent').update('model', name, vscode.ConfigurationTarget.Global);
      deps.say([`model: ${name} (the mcpAgent.model setting)`]);
    },
    resource: async (server, uri) => {
      const known = deps.hub.status(server)?.resources.find((r) => r.uri === uri);
      deps.attach(resourceRef(server, uri), known?.title ?? known?.name ?? uri);
    },
    prompt: async (server, name, args, missing) => {
      // Missing required arguments: the Prompts view's own command asks for those, keeping the ones typed.
      if (missing.length > 0) {
        await vscode.commands.executeCommand('mcpAgent.usePrompt', server, name, args);
        return;
      }
      const result = await deps.hub.getPrompt(server, name, args);
      await deps.sendPrompt({ server, name, args, result });
    },
  });
  // The composer sends only commands here; `//x` is text, and it goes to the model like any message.
  if (unsent !== undefined) deps.say(['Start a message with // to send a line beginning with /.']);
}
