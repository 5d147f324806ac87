/**
 * `_meta` key on a tool definition: how many seconds a call may take in all, for tools whose work
 * is long by nature (a sub-agent's turn) and which report progress while they work. A host that
 * caps a call's total time uses the larger of its own cap and this.
 */
export const MAX_SECONDS = 'mcpAgent/maxSeconds';
