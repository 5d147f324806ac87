import type { Client } from '@modelcontextprotocol/client';
import { readWebUrl, webHost } from '../../../node/web-address';
import type { ServerConfig, ServerStatus } from '../types';

/** What a status is made of: a connection as it stands (McpConnection, which this file must not import: it imports this). */
interface StatusSource {
  readonly name: string;
  readonly config: ServerConfig;
  readonly state: ServerStatus['state'];
  readonly error: string | undefined;
  readonly tools: ServerStatus['tools'];
  readonly resources: ServerStatus['resources'];
  readonly resourceTemplates: ServerStatus['resourceTemplates'];
  readonly prompts: ServerStatus['prompts'];
  readonly pid: number | undefined;
  readonly transportKind: NonNullable<ServerStatus['transport']>;
  readonly era: ServerStatus['era'];
  readonly invalidSchemas: ReadonlyMap<string, string>;
  supports(feature: 'tasks'): boolean;
}

/** What the views and the model are told of a server: its state, what it offers, how it is reached. */
export function connectionStatus(conn: StatusSource, client: Client | undefined): ServerStatus {
  const info = client?.getServerVersion();
  return {
    name: conn.name,
    state: conn.state,
    error: conn.error,
    tools: conn.tools,
    resources: conn.resources,
    resourceTemplates: conn.resourceTemplates,
    prompts: conn.prompts,
    pid: conn.state === 'ready' || conn.state === 'starting' ? conn.pid : undefined,
    serverVersion: info ? `${info.name} ${info.version}` : undefined,
    transport: conn.transportKind,
    era: conn.state === 'ready' ? conn.era : undefined,
    protocolVersion: conn.state === 'ready' ? client?.getNegotiatedProtocolVersion() : undefined,
    instructions: client?.getInstructions(),
    tasks: conn.supports('tasks'),
    ...(conn.config.transport === 'stdio' ? {} : { endpoint: endpointHost(conn.config.url) }),
    ...(conn.invalidSchemas.size > 0 ? { invalidSchemas: Object.fromEntries(conn.invalidSchemas) } : {}),
  };
}

/** The host a remote server's requests go to, as the egress guard names places. */
function endpointHost(url: string): string | undefined {
  const parsed = readWebUrl(url);
  return parsed ? webHost(parsed) : undefined;
}
