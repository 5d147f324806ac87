/**
 * Files whose content makes an editor, git or an MCP host run commands: a write to one of them is
 * a way to run code, so it always needs explicit approval, whatever the user auto-approved.
 * Matched at any depth (nested projects and submodules have their own) and under every name a
 * file system could give the same file (case, Unicode forms, Windows trimming and short names).
 */
const SENSITIVE_FILES = [
  '.vscode/settings.json',
  '.vscode/tasks.json',
  '.vscode/launch.json',
  '.vscode/mcp.json',
  '.vscode/extensions.json',
  '.mcp.json',
  '.cursor/mcp.json',
  'claude_desktop_config.json',
  '.mcp-agent/servers.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.gitmodules',
];

/** Folders where every file is sensitive. */
const SENSITIVE_FOLDERS = ['.husky'];

/**
 * Nested folders where every file is sensitive: agent definitions (the instructions and tools of the
 * next sub-agent started) and orchestrator session histories (what a resumed agent believes).
 */
const SENSITIVE_NESTED_FOLDERS = ['.mcp-agent/agents', '.mcp-agent/sessions', '.claude/agents'];

/**
 * True when a write to `path` (relative to the workspace; absolute works too) must be approved
 * explicitly. Pure: no file system access, so the extension's approval code can use it as is.
 * A path counts when any way of reading it (see readings()) is sensitive: a false alarm costs one
 * question, a miss lets an "always allowed" write plant a command.
 */
export function isSensitivePath(path: string): boolean {
  return readings(path).some(isSensitive);
}

function isSensitive(segments: string[]): boolean {
  if (segments.length === 0) return false;
  // Anything in or named `.git` (its config, hooks, commondir, modules/*/config, or a `.git` file
  // saying `gitdir: elsewhere`) decides which config git reads and so which commands it runs.
  // `repo.git` is how bare repositories are named; an 8.3 short name (`GIT~1`) may be any of these.
  if (segments.some((s) => s === '.git' || s.endsWith('.git') || isShortName(s))) return true;
  const last = segments[segments.length - 1]!;
  // A folder holding HEAD (with objects/ and refs/) is a repository to git, which then runs what
  // its `config` says (safe.bareRepository defaults to "all"): HEAD is what makes it one.
  if (last === 'head') return true;
  if (last.endsWith('.code-workspace')) return true;
  const joined = '/' + segments.join('/');
  if (SENSITIVE_FILES.some((file) => joined.endsWith('/' + file))) return true;
  if (SENSITIVE_NESTED_FOLDERS.some((folder) => joined.includes(`/${folder}/`))) return true;
  // The folder itself is not a file to write; anything below it is.
  return segments.slice(0, -1).some((s) => SENSITIVE_FOLDERS.includes(s));
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
