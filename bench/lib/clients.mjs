// The two MCP clients compared: our McpConnection (src/core/mcp) and the SDK's Client over its own
// StdioClientTransport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * Starts an McpConnection to `node <args...>`; resolves once it is ready. `callOptions` go with every call
 * (the agent's: its turn's AbortSignal and a progress callback).
 */
export async function openOurs(host, name, args, callOptions = {}) {
  const conn = new host.McpConnection({ name, transport: 'stdio', command: process.execPath, args }, { callTimeoutMs: 120_000, requestTimeoutMs: 60_000 });
  await conn.start();
  return {
    call: (tool, toolArgs, timeoutMs) => conn.callTool(tool, toolArgs, timeoutMs ? { ...callOptions, timeoutMs } : callOptions),
    tools: () => conn.tools,
    close: () => conn.close(),
  };
}

/** The SDK's own client and stdio transport, as an SDK user gets them (`maxBufferSize` to raise its cap). */
export async function openSdk(args, { maxBufferSize } = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore', maxBufferSize });
  const client = new Client({ name: 'mcp-agent-bench', version: '0' });
  const errors = [];
  let closed = false;
  client.onerror = (err) => errors.push(err instanceof Error ? err.message : String(err));
  client.onclose = () => {
    closed = true;
  };
  await client.connect(transport);
  return {
    call: (tool, toolArgs, timeoutMs) => client.callTool({ name: tool, arguments: toolArgs }, undefined, timeoutMs ? { timeout: timeoutMs } : {}),
    errors,
    isClosed: () => closed,
    close: () => client.close(),
  };
}

/** The text of a tool result, joined. */
export function resultText(result) {
  return (result?.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
