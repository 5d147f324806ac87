/**
 * An MCP server that never answers `initialize`, ignores stdin EOF and SIGTERM: only SIGKILL ends
 * it. Tests the host's initialize timeout, its diagnosis and its close escalation.
 */
process.stderr.write('no-init: warming up the flux capacitor\n');
process.on('SIGTERM', () => process.stderr.write('no-init: ignoring SIGTERM\n'));
process.stdin.on('data', () => undefined);
process.stdin.on('end', () => undefined);
setInterval(() => undefined, 1 << 30);
