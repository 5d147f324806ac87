/** How the chat and the CLI say what a running turn waits for (protocol.ts's TurnActivity). */
import type { TurnActivity } from './protocol';

const WHY: Record<Extract<TurnActivity, { kind: 'retry' }>['reason'], (status: number | undefined) => string> = {
  overloaded: () => 'The API is overloaded',
  rate_limited: () => 'The API is rate limiting this key',
  server_error: (status) => `The API failed${status ? ` (${status})` : ''}`,
  connection: () => 'The connection to the API failed',
};

/**
 * The line for an activity, `seconds` into it (for a retry: seconds left before the next try), e.g.
 * "Waiting for the model… 3 s" or "The API is overloaded; retrying in 2 s (try 2 of 3)".
 */
export function activityText(a: TurnActivity, seconds: number): string {
  // Time spent counts whole seconds passed; a wait counts down whole seconds left.
  const s = Math.max(0, a.kind === 'retry' ? Math.ceil(seconds) : Math.floor(seconds));
  switch (a.kind) {
    case 'request':
      return `Waiting for the model… ${s} s${a.attempt > 1 ? ` (try ${a.attempt} of ${a.attempts})` : ''}`;
    case 'thinking':
      return `Thinking… ${s} s`;
    case 'servers':
      return `Waiting for ${a.starting.length === 1 ? 'a server' : 'servers'} to start (${a.starting.join(', ')})… ${s} s`;
    case 'tool_input':
      return `Writing the call to ${a.tool}… ${s} s`;
    case 'compacting':
      return `Summarising older messages to fit the context window… ${s} s`;
    case 'retry':
      return `${WHY[a.reason](a.status)}; ${s > 0 ? `retrying in ${s} s` : 'retrying now'} (try ${a.attempt} of ${a.attempts})`;
  }
}

/** Before any activity is known (a page that joined a running turn): the turn runs, that is all. */
export function workingText(seconds: number): string {
  return `Working… ${Math.max(0, Math.floor(seconds))} s`;
}
