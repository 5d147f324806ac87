// The official MCP conformance suite needs Node 22; the project and its users run on Node 20. The tests fetch a
// Node 22 binary from the npm registry (scripts/node-binary.mjs), as they do Node 24 for today's code-server.
import { ensureNodeBinary } from './node-binary.mjs';

export const NODE22_VERSION = '22.23.3';

/** The Node 22 binary's path, installed first when missing (about 30 MB from the registry, once per machine). */
export function ensureNode22() {
  return ensureNodeBinary(NODE22_VERSION, 'the conformance suite');
}
