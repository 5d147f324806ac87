/**
 * The rule: a file that a tool in the repository runs or loads by itself (when the person opens the folder, commits,
 * installs, enters the folder in a shell, or pushes) is a way to run code, so a write to it always needs explicit
 * approval, whatever the person auto-approved. Its list, in groups by the tool, each with why. Matched at any depth
 * (nested projects and submodules have their own) and under every name a file system could give the same file
 * (case, Unicode forms, Windows trimming and short names). git's own folder is matched by shape (isSensitive).
 */
interface Group {
  why: string;
  /** Files, by their last segments (`.vscode/tasks.json` matches `sub/.vscode/tasks.json`). */
  files?: string[];
  /** Folders, by their last segments: every file below one is sensitive. */
  folders?: string[];
  /** Name endings of a file. */
  endings?: string[];
}

export const RUNS_BY_ITSELF: readonly Group[] = [
  {
    why: 'The editor runs tasks (some on opening the folder) and launch configurations, and its settings name programs it starts.',
    files: ['.vscode/settings.json', '.vscode/tasks.json', '.vscode/launch.json', '.vscode/extensions.json'],
    endings: ['.code-workspace'],
  },
  {
    why: 'A dev container builds and runs what these say when the folder is opened in one.',
    files: ['.devcontainer.json'],
    folders: ['.devcontainer'],
  },
  {
    why: 'MCP hosts start the servers these name; agents start with the instructions and tools these give, and a resumed one believes its history.',
    files: [
      '.vscode/mcp.json',
      '.mcp.json',
      '.cursor/mcp.json',
      'claude_desktop_config.json',
      '.mcp-agent/servers.json',
      '.claude/settings.json',
      '.claude/settings.local.json',
    ],
    folders: ['.mcp-agent/agents', '.mcp-agent/sessions', '.claude/agents'],
  },
  {
    why: 'Git fetches the repositories this names and runs what their config says (its own folder is matched by shape).',
    files: ['.gitmodules'],
  },
  {
    why: 'Hook managers install git hooks from these, which then run on every commit or push.',
    files: [
      '.pre-commit-config.yaml',
      '.pre-commit-config.yml',
      'lefthook.yml',
      'lefthook.yaml',
      'lefthook.json',
      'lefthook.toml',
      '.lefthook.yml',
      '.lefthook.yaml',
      'lefthook-local.yml',
      'lefthook-local.yaml',
      '.lefthook-local.yml',
      '.lefthook-local.yaml',
      '.simple-git-hooks.json',
      '.simple-git-hooks.js',
      '.simple-git-hooks.cjs',
      'simple-git-hooks.json',
      '.lintstagedrc',
      '.lintstagedrc.json',
      '.lintstagedrc.yaml',
      '.lintstagedrc.yml',
      '.lintstagedrc.js',
      '.lintstagedrc.cjs',
      '.lintstagedrc.mjs',
      'lint-staged.config.js',
      'lint-staged.config.cjs',
      'lint-staged.config.mjs',
      '.overcommit.yml',
    ],
    folders: ['.husky', '.githooks', '.lefthook'],
  },
  {
    // package.json asks too: npm runs its preinstall, install, postinstall and prepare scripts on a plain `npm install`,
    // and a write's own text cannot show whether it changes one (an edit may change a command and not its key). Writes
    // to it are rare beside source files (an agent mostly adds packages by running the package manager), so one
    // question each is the cheaper side.
    why: 'Package managers run the scripts and load the code these name on every install.',
    files: ['package.json', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.pnpmfile.mjs', 'pnpm-workspace.yaml', 'bunfig.toml'],
    folders: ['.yarn/plugins', '.yarn/releases'],
  },
  {
    why: 'Task runners and environment loaders run these on entering the folder in a shell.',
    files: ['.envrc', 'mise.toml', '.mise.toml', 'mise.local.toml', '.mise.local.toml', '.config/mise.toml'],
    folders: ['.mise'],
  },
  {
    why: "CI runs these on every push, with the repository's secrets.",
    files: ['.gitlab-ci.yml', 'azure-pipelines.yml', 'bitbucket-pipelines.yml', 'Jenkinsfile', '.travis.yml', 'appveyor.yml', '.drone.yml'],
    folders: ['.github/workflows', '.github/actions', '.circleci', '.buildkite', '.gitea/workflows', '.forgejo/workflows', '.woodpecker'],
  },
];

/** Each entry folded as a path is (foldName per segment), so the lists may be written as the tools spell them. */
const fold = (entry: string): string => entry.split('/').map(foldName).join('/');
const FOLDED = RUNS_BY_ITSELF.map((g) => ({
  why: g.why,
  files: (g.files ?? []).map(fold),
  folders: (g.folders ?? []).map(fold),
  endings: (g.endings ?? []).map(fold),
}));

const GIT = 'Git runs hooks and reads config from its own folder, and takes a folder holding HEAD for a repository.';

/**
 * Why a write to `path` (relative to the workspace; absolute works too) must be approved explicitly, or undefined when
 * it need not. Pure: no file system access, so the extension's approval code can use it as is. A path counts when any
 * way of reading it (see readings()) is sensitive: a false alarm costs one question, a miss lets an "always allowed"
 * write plant a command.
 */
export function sensitiveWhy(path: string): string | undefined {
  for (const segments of readings(path)) {
    const why = whyOf(segments);
    if (why !== undefined) return why;
  }
  return undefined;
}

export function isSensitivePath(path: string): boolean {
  return sensitiveWhy(path) !== undefined;
}

function whyOf(segments: string[]): string | undefined {
  if (segments.length === 0) return undefined;
  // Anything in or named `.git` (its config, hooks, commondir, modules/*/config, or a `.git` file
  // saying `gitdir: elsewhere`) decides which config git reads and so which commands it runs.
  // `repo.git` is how bare repositories are named; an 8.3 short name (`GIT~1`) may be any of these.
  if (segments.some((s) => s === '.git' || s.endsWith('.git') || isShortName(s))) return GIT;
  const last = segments[segments.length - 1]!;
  // A folder holding HEAD (with objects/ and refs/) is a repository to git, which then runs what
  // its `config` says (safe.bareRepository defaults to "all"): HEAD is what makes it one.
  if (last === 'head') return GIT;
  const joined = '/' + segments.join('/');
  // A folder itself is not a file to write; anything below it is.
  return FOLDED.find(
    (g) =>
      g.endings.some((ending) => last.endsWith(ending)) ||
      g.files.some((file) => joined.endsWith('/' + file)) ||
      g.folders.some((folder) => joined.includes(`/${folder}/`)),
  )?.why;
}

/**
 * The segment lists a file system could make of `path`, each segment folded to one spelling:
 * as POSIX reads it, and as Windows does (trailing dots and spaces dropped, `name::$DATA`
 * alternate streams naming the file itself). Both kinds of slash split segments; `.` and `..`
 * resolve before folding, because the kernel only treats the ASCII ones as special.
 */
function readings(path: string): string[][] {
  const raw = path.split(/[\\/]/);
  return [resolveDots(raw), resolveDots(raw.map(windowsName))].map((segments) => segments.map(foldName));
}

function resolveDots(segments: string[]): string[] {
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out;
}

/** What Win32 opens for a name: `tasks.json::$DATA` and `settings.json. ` are `tasks.json`, `settings.json`. */
function windowsName(segment: string): string {
  const name = segment.replace(/:.*$/s, '').replace(/ +$/, '');
  return /^\.+$/.test(name) ? name : name.replace(/[. ]+$/, '');
}

/**
 * One spelling for every name a case-insensitive, normalisation-insensitive file system (NTFS's
 * upcase table, APFS, HFS+) could treat as the same, and then some: compatibility forms
 * (fullwidth `．ｇｉｔ`), NFC/NFD, characters HFS+ ignores (zero-width joiners), accents, and case
 * through upper then lower so that `ſ` (long s), `K` (Kelvin), `ı` and `İ` land on ASCII.
 * Over-folding (`.gït` reads as `.git`) only asks one question too many.
 * String.normalize, toUpperCase and \p{...} carry the Unicode tables; no library adds to them.
 */
function foldName(segment: string): string {
  const strip = (s: string): string => s.normalize('NFKD').replace(/[\p{Default_Ignorable_Code_Point}\p{M}]/gu, '');
  return strip(strip(segment).toUpperCase().toLowerCase());
}

/** An NTFS 8.3 alias such as `GIT~1` or `SETTIN~1.JSO`: on Windows it may name any long name. */
function isShortName(segment: string): boolean {
  const match = /^([^.~]+~\d+)(\.[^.]*)?$/.exec(segment);
  return match !== null && match[1]!.length <= 8 && (match[2] ?? '').length <= 4;
}
