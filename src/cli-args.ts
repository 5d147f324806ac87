import { resolve } from 'node:path';
import { DEFAULT_MODEL } from './core/agent/models';

export interface CliArgs {
  workspace: string;
  yes: boolean;
  prompt?: string;
  model: string;
  maxIterations: number;
  help: boolean;
}

export const USAGE = `usage: node dist/cli.js --workspace <dir> [--yes] [--model <name>] [--max-iterations <n>] ["prompt"]

  With a prompt: runs one turn and exits (0 when the turn finished).
  Without: a REPL; type a message at "You:", "exit" to quit, Ctrl+C stops a turn.
  --yes approves every tool call; otherwise each call that changes something asks y/N/a(lways).
  Reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL like the Anthropic SDK; BRAVE_API_KEY for web_search.`;

/** Parses the CLI's arguments; throws an Error with a message for the person on anything unknown. */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  const args: CliArgs = {
    workspace: process.cwd(),
    yes: false,
    model: env.MCP_AGENT_MODEL ?? DEFAULT_MODEL,
    maxIterations: 10,
    help: false,
  };
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--workspace' || arg === '-w') args.workspace = resolve(value());
    else if (arg.startsWith('--workspace=')) args.workspace = resolve(arg.slice('--workspace='.length));
    else if (arg === '--yes' || arg === '-y') args.yes = true;
    else if (arg === '--model') args.model = value();
    else if (arg === '--max-iterations') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error('--max-iterations needs a whole number of at least 1');
      args.maxIterations = n;
    } else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '--') rest.push(...argv.slice(i + 1)), (i = argv.length);
    else if (arg.startsWith('-') && arg.length > 1) throw new Error(`unknown option ${arg}`);
    else rest.push(arg);
  }
  if (rest.length > 0) args.prompt = rest.join(' ');
  return args;
}
