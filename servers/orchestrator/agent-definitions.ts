import { readdir } from 'node:fs/promises';
import * as z from 'zod';
import { Sandbox } from '../../src/node/sandbox';
import { readSmallFile } from '../../src/node/small-file';
import type { ServerDefinition } from '../../src/core/mcp/config/definition';
import { readAgentServers } from './agent-servers';
import { splitFrontMatter } from './front-matter';
import { parseAllowList, SUB_SERVERS, type ToolAllowList } from './tool-allowlist';

/** Where definitions are read from, in order: the project's own first, then Claude Code's. */
export const AGENT_FOLDERS = ['.mcp-agent/agents', '.claude/agents'] as const;

const MAX_FILE_BYTES = 256 * 1024;
const MAX_FILES_PER_FOLDER = 200;

export interface AgentDefinition {
  name: string;
  description: string;
  /** The body of the file: the agent's instructions. */
  prompt: string;
  /** As written (`inherit`, an alias or a model id); undefined: the orchestrator's default. */
  model: string | undefined;
  allow: ToolAllowList;
  /** Servers of its own (`mcpServers` entries with a config): started for it once the person agreed. */
  servers: ServerDefinition[];
  /** `built-in` or the file, relative to the workspace. */
  source: string;
}

/** Where definitions are read and what their `mcpServers` may name. */
export interface LoadContext {
  workspace: string;
  /** The person's own servers (MCP_AGENT_ORCHESTRATOR_MCP_CONFIG), which a definition may name. */
  personServers: readonly string[];
  /** For `${VAR}` in a definition's own servers. */
  env: NodeJS.ProcessEnv;
}

export interface BrokenDefinition {
  file: string;
  why: string;
}

export interface AgentCatalog {
  agents: AgentDefinition[];
  broken: BrokenDefinition[];
}

const toolList = z.union([
  z.string().transform((s) =>
    s
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
  z.array(z.string()),
]);

const frontMatterSchema = z.object({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'letters, digits, "_" and "-" only, at most 64'),
  description: z.string().trim().min(1, 'say in a sentence what the agent is for'),
  tools: toolList.optional(),
  model: z.string().trim().min(1).optional(),
  // Names, Claude Code's list of names and { name: config } entries, or a .mcp.json-style map: see agent-servers.ts.
  mcpServers: z.unknown().optional(),
});

export const GENERAL_AGENT: AgentDefinition = {
  name: 'general',
  description: 'A general-purpose agent with the workspace, web and research tools. Used when no agent is named.',
  prompt:
    'You are a sub-agent started by another agent or a person to do one task. Work on it with the tools you have. ' +
    'When you are done, reply with a short report of what you did and found: your last message is what the one who ' +
    'started you reads.',
  model: undefined,
  allow: parseAllowList(undefined, undefined),
  servers: [],
  source: 'built-in',
};

/** The agents the orchestrator brings; no workspace definition may take one of their names. */
const BUILT_IN_AGENTS: readonly AgentDefinition[] = [GENERAL_AGENT];

/** Reads every definition; a file that cannot be one is listed in `broken` with why, never skipped silently. */
export async function loadAgents(ctx: LoadContext): Promise<AgentCatalog> {
  const sandbox = new Sandbox(ctx.workspace);
  // Built-ins first: a repository's file named like one would otherwise run where the built-in is expected
  // (start_agent without agent_name), with the repository's instructions and tools.
  const byName = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((a) => [a.name, a]));
  const broken: BrokenDefinition[] = [];
  for (const folder of AGENT_FOLDERS) {
    for (const file of await markdownFiles(sandbox, folder, broken)) {
      const loaded = await loadFile(sandbox, file, ctx);
      if ('why' in loaded) {
        broken.push(loaded);
        continue;
      }
      const earlier = byName.get(loaded.name);
      if (earlier?.source === 'built-in')
        broken.push({ file, why: `"${loaded.name}" is the name of a built-in agent, which a definition cannot replace; give it another name` });
      else if (earlier) broken.push({ file, why: `the name "${loaded.name}" is already taken by ${earlier.source}, which is used instead` });
      else byName.set(loaded.name, loaded);
    }
  }
  return { agents: [...byName.values()], broken };
}

async function markdownFiles(sandbox: Sandbox, folder: string, broken: BrokenDefinition[]): Promise<string[]> {
  let real: string;
  try {
    real = (await sandbox.existing(folder)).real;
  } catch (err) {
    // A missing folder is the usual case; one that leads out of the workspace is worth saying.
    if (/does not exist/.test((err as Error).message)) return [];
    broken.push({ file: folder, why: (err as Error).message });
    return [];
  }
  let names: string[];
  try {
    names = (await readdir(real)).filter((n) => n.endsWith('.md')).sort();
  } catch (err) {
    broken.push({ file: folder, why: `cannot be listed: ${(err as Error).message}` });
    return [];
  }
  if (names.length > MAX_FILES_PER_FOLDER) {
    broken.push({ file: folder, why: `holds ${names.length} definitions; only the first ${MAX_FILES_PER_FOLDER} are read` });
    names = names.slice(0, MAX_FILES_PER_FOLDER);
  }
  return names.map((n) => `${folder}/${n}`);
}

async function loadFile(sandbox: Sandbox, file: string, ctx: LoadContext): Promise<AgentDefinition | BrokenDefinition> {
  let real: string;
  try {
    real = (await sandbox.existing(file)).real;
  } catch (err) {
    return { file, why: (err as Error).message };
  }
  const read = readSmallFile(real, MAX_FILE_BYTES);
  if (read.kind === 'missing') return { file, why: 'it disappeared while being read' };
  if (read.kind === 'not-a-file') return { file, why: 'it is not a regular file' };
  if (read.kind === 'too-big') return { file, why: `it is ${read.size} bytes; a definition may have at most ${MAX_FILE_BYTES}` };
  if (read.kind === 'unreadable') return { file, why: `it cannot be read: ${read.message}` };
  return parseDefinition(file, read.bytes.toString('utf8'), ctx);
}

/** One definition from its text; `file` (relative to the workspace) names it in what is said. */
export function parseDefinition(file: string, text: string, ctx: LoadContext): AgentDefinition | BrokenDefinition {
  let split: ReturnType<typeof splitFrontMatter>;
  try {
    split = splitFrontMatter(text);
  } catch (err) {
    return { file, why: `its front matter is not valid YAML: ${firstLine((err as Error).message)}` };
  }
  if (!split.hasFrontMatter) {
    return { file, why: 'it has no front matter: start it with a "---" block holding name and description' };
  }
  const parsed = frontMatterSchema.safeParse(split.data ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'front matter'}: ${i.message}`);
    return { file, why: problems.join('; ') };
  }
  const fm = parsed.data;
  const known = [...SUB_SERVERS, ...ctx.personServers];
  const servers = readAgentServers(fm.mcpServers, { workspace: ctx.workspace, path: file }, ['orchestrator', ...known], ctx.env);
  // Its own servers alone add to what the agent has, as in Claude Code; they do not narrow it to them.
  const named = servers.named.length > 0 ? servers.named : undefined;
  const allow = parseAllowList(
    fm.tools,
    named,
    servers.inline.map((d) => d.name),
    known,
  );
  allow.warnings.push(...servers.problems);
  return {
    name: fm.name,
    description: fm.description,
    prompt: split.body.trim(),
    model: fm.model,
    allow,
    servers: servers.inline,
    source: file,
  };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}

/** Claude Code's model aliases, so its agent files pick the same family here. */
const MODEL_ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-5-5',
  opus: 'claude-opus-5-5',
  haiku: 'claude-haiku-5-5',
};

/** The model id a definition runs on: its own, an alias's, or the default for none and `inherit`. */
export function modelOf(definition: Pick<AgentDefinition, 'model'>, fallback: string): string {
  const m = definition.model;
  if (m === undefined || m === 'inherit') return fallback;
  return MODEL_ALIASES[m.toLowerCase()] ?? m;
}
