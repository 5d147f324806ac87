import { posix } from 'node:path';

/**
 * Files whose content makes an editor, git or an MCP host run commands: a write to one of them is
 * a way to run code, so it always needs explicit approval, whatever the user auto-approved.
 * Matched at any depth (nested projects and submodules have their own) and case-insensitively.
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
  '.git/config',
  '.gitmodules',
];

/** Folders where every file is sensitive. */
const SENSITIVE_FOLDERS = ['.git/hooks/', '.husky/'];

/**
 * True when a write to `path` (relative to the workspace; absolute works too) must be approved
 * explicitly. Pure: no file system access, so the extension's approval code can use it as is.
 */
export function isSensitivePath(path: string): boolean {
  const segments = normalise(path);
  if (segments.length === 0) return false;
  const last = segments[segments.length - 1];
  if (last.endsWith('.code-workspace')) return true;
  const joined = '/' + segments.join('/');
  for (const file of SENSITIVE_FILES) {
    if (joined.endsWith('/' + file)) return true;
  }
  const folderPath = joined + '/';
  for (const folder of SENSITIVE_FOLDERS) {
    const at = folderPath.indexOf('/' + folder);
    // The folder itself is not a file to write; anything below it is.
    if (at !== -1 && folderPath.length > at + folder.length + 1) return true;
  }
  return false;
}

function normalise(path: string): string[] {
  const slashed = path.replace(/\\/g, '/').toLowerCase();
  const normal = posix.normalize(slashed.startsWith('/') ? slashed : '/' + slashed);
  return (
    normal
      .split('/')
      // Windows ignores trailing dots and spaces in names: `settings.json.` is `settings.json` there.
      .map((s) => (/^\.+$/.test(s) ? s : s.replace(/[. ]+$/, '')))
      // An NTFS alternate data stream (`tasks.json::$DATA`) names the same file.
      .map((s) => s.replace(/:.*$/, ''))
      .filter((s) => s !== '' && s !== '.')
  );
}
