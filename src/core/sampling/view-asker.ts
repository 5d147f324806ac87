const VIEW_OF = 'the view of ';

/**
 * Who an MCP App view's sampling request is shown as asking: the view, not its server, so the card says so and the
 * server's "Always" (its budget, its running requests) never covers its view, nor the other way round.
 */
export function viewAsker(server: string): string {
  return `${VIEW_OF}${server}`;
}

/** Whether a sampling request's asker is a view (viewAsker) rather than a server. */
export function isViewAsker(asker: string): boolean {
  return asker.startsWith(VIEW_OF);
}
