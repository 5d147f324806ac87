/**
 * An adapter that lets the official MCP conformance suite (`@modelcontextprotocol/conformance client`) drive
 * the CLI's client half: `node out/test/fakes/conformance-client.js <server-url>` connects with the host's
 * McpConnection and the CLI's own elicitation answers under --yes (a form whose required fields all have
 * defaults is accepted with them), then calls every tool the scenario's server offers once.
 */
import { McpConnection } from '../../src/core/mcp/connection';
import { elicitationHandler } from '../../src/core/mcp/elicitation-handler';
import { terminalElicitation } from '../../src/cli-elicitation';

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  if (!url?.startsWith('http')) {
    process.stderr.write('usage: conformance-client <server-url>\n');
    return 2;
  }
  const terminal = { ask: async () => undefined, line: (t: string) => void process.stderr.write(`${t}\n`) };
  const conn = new McpConnection(
    { name: 'conformance', transport: 'http', url },
    { handlers: { elicitation: elicitationHandler(terminalElicitation(terminal, true)) } },
  );
  try {
    await conn.start();
    for (const tool of conn.tools) {
      const result = await conn.callTool(tool.name, {});
      process.stderr.write(`${tool.name}: ${JSON.stringify(result.content)}\n`);
    }
    return 0;
  } finally {
    await conn.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`conformance-client: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
