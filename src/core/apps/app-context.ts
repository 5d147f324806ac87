/**
 * What views asked the model to know (ui/update-model-context), per call: each view's latest replaces its earlier
 * one, and all of it goes with the person's next message, as context set by the views (never as the person's
 * words), then is cleared: the conversation holds it from there on.
 */
export class AppContexts {
  private readonly byCall = new Map<string, { server: string; text: string }>();

  set(callId: string, server: string, text: string): void {
    if (text.trim()) this.byCall.set(callId, { server, text });
    else this.byCall.delete(callId);
  }

  /** The context blocks for the next message, and nothing after that. */
  take(): string[] {
    const blocks = [...this.byCall.values()].map(
      ({ server, text }) =>
        `<mcp_app_context server="${server.replace(/["<>&]/g, '')}">\nSet by the interactive view of server "${server}", not written by the person.\n${text.replace(/<\/mcp_app_context/gi, '<\\/mcp_app_context')}\n</mcp_app_context>`,
    );
    this.byCall.clear();
    return blocks;
  }

  clear(): void {
    this.byCall.clear();
  }
}
