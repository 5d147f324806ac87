import { lstatSync, realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolError } from './tool-error';
import { isInside } from './path-inside';
import { mkdirInside } from './confined-fs';

export { isInside };

/** A path the sandbox accepted: where it really is, and how to name it to a person. */
export interface SandboxPath {
  /** Absolute path with every existing symlink resolved; inside the workspace. */
  readonly real: string;
  /** The same path relative to the workspace, with `/` separators ('.' for the root). */
  readonly rel: string;
}

/**
 * Confines tool paths to one workspace directory.
 *
 * Two checks, both needed: a lexical one (so `..`, sibling prefixes, NUL bytes and `~` fail with a
 * clear message before touching the disk) and a real one (realpath of the target or of its nearest
 * existing ancestor, so a symlink inside the workspace cannot lead out of it).
 */
export class Sandbox {
  /** The workspace as given (resolved, not realpath'd): absolute user paths are written against it. */
  readonly given: string;
  /** The workspace with symlinks resolved: every real path must be inside it. */
  readonly root: string;

  constructor(workspace: string) {
    this.given = resolve(workspace);
    this.root = realpathSync(this.given);
  }

  /** Lexical resolution only: absolute, normalised, inside the workspace, nothing read from disk. */
  lexical(userPath: string): string {
    if (userPath.includes('\0')) {
      throw new ToolError(`Path ${JSON.stringify(userPath)} contains a NUL byte; file names cannot hold one.`);
    }
    if (userPath === '~' || /^~[A-Za-z0-9._-]*[/\\]/.test(userPath)) {
      throw new ToolError(
        `Path "${userPath}" starts with "~", which would name a home directory outside the workspace. ` +
          `Paths are not expanded; give a path relative to the workspace (${this.given}).`,
      );
    }
    const abs = resolve(this.given, userPath);
    if (isInside(this.given, abs)) return abs;
    if (isInside(this.root, abs)) return join(this.given, relative(this.root, abs));
    throw this.outside(userPath);
  }

  /** An existing file or directory: symlinks resolved, still inside the workspace. */
  async existing(userPath: string): Promise<SandboxPath> {
    const abs = this.lexical(userPath);
    let real: string;
    try {
      real = await realpath(abs);
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) {
        throw new ToolError(`"${userPath}" does not exist in the workspace.${await this.nearestHint(abs)}`);
      }
      if (isCode(err, 'ELOOP')) throw new ToolError(`"${userPath}" is a symlink loop.`);
      throw err;
    }
    return this.checked(userPath, real);
  }

  /**
   * A path to write: the nearest existing ancestor is realpath'd and must be inside the workspace;
   * the target itself, when it exists, must be a regular file and never a symlink (a write must not
   * follow one). Missing parent folders are created when `createParents` is set.
   */
  async forWrite(userPath: string, createParents = false): Promise<SandboxPath & { exists: boolean; mode?: number }> {
    const abs = this.lexical(userPath);
    if (abs === this.given) throw new ToolError(`"${userPath}" is the workspace folder itself, not a file.`);
    const parent = await this.realParent(userPath, dirname(abs), createParents);
    const target = join(parent.real, basename(abs));
    const rel = this.checked(userPath, target).rel;
    try {
      const st = await lstat(target);
      if (st.isSymbolicLink()) {
        throw new ToolError(`"${userPath}" is a symlink; writes never follow symlinks. Write to the file it points to instead.`);
      }
      if (st.isDirectory()) throw new ToolError(`"${userPath}" is a directory, not a file.`);
      if (!st.isFile()) throw new ToolError(`"${userPath}" is not a regular file (it is a FIFO, socket or device).`);
      return { real: target, rel, exists: true, mode: st.mode & 0o7777 };
    } catch (err) {
      if (isCode(err, 'ENOENT')) return { real: target, rel, exists: false };
      throw err;
    }
  }

  /** The relative, `/`-separated name of a real path inside the workspace. */
  relativeName(real: string): string {
    const rel = relative(this.root, real);
    return rel === '' ? '.' : rel.split(sep).join('/');
  }

  private async realParent(userPath: string, dir: string, create: boolean): Promise<SandboxPath> {
    // Walk up to the nearest existing ancestor: its realpath decides where the new path really is.
    let existing = dir;
    const missing: string[] = [];
    for (;;) {
      try {
        const st = await lstat(existing);
        if (!st.isDirectory() && !st.isSymbolicLink()) {
          throw new ToolError(`Cannot write "${userPath}": "${this.relativeName(existing)}" is a file, not a folder.`);
        }
        break;
      } catch (err) {
        if (!isCode(err, 'ENOENT')) throw err;
        missing.unshift(basename(existing));
        existing = dirname(existing);
      }
    }
    const realExisting = this.checked(userPath, await realpath(existing)).real;
    if (missing.length === 0) return this.checked(userPath, realExisting);
    if (!create) throw new ToolError(`Cannot write "${userPath}": folder "${this.relativeName(join(realExisting, ...missing))}" does not exist.`);
    // Create one level at a time and re-check each: a folder swapped for a symlink meanwhile is caught.
    let current = realExisting;
    for (const name of missing) {
      const next = await mkdirInside(this.root, current, name, userPath);
      current = this.checked(userPath, await realpath(next)).real;
    }
    return this.checked(userPath, current);
  }

  private checked(userPath: string, real: string): SandboxPath {
    if (!isInside(this.root, real)) {
      throw new ToolError(
        `"${userPath}" leads outside the workspace through a symlink (it resolves to ${real}); ` + `only files inside ${this.given} can be used.`,
      );
    }
    return { real, rel: this.relativeName(real) };
  }

  private outside(userPath: string): ToolError {
    const how = isAbsolute(userPath) ? 'is outside' : 'climbs out of';
    return new ToolError(
      `"${userPath}" ${how} the workspace (${this.given}); only paths inside it can be used. ` +
        `Give a path relative to the workspace, e.g. "notes/todo.txt".`,
    );
  }

  private async nearestHint(abs: string): Promise<string> {
    // Name the deepest folder that does exist, so the caller can list it instead of guessing.
    let dir = dirname(abs);
    while (isInside(this.given, dir)) {
      try {
        if (lstatSync(dir).isDirectory()) {
          const rel = relative(this.given, dir) || '.';
          return ` The nearest existing folder is "${rel.split(sep).join('/')}"; list_directory shows what it holds.`;
        }
      } catch {
        // keep climbing
      }
      if (dir === this.given) break;
      dir = dirname(dir);
    }
    return '';
  }
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}
