import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, opendirSync, readlinkSync, realpathSync, type Dir } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from './path-inside';
import { ToolError } from './tool-error';

/**
 * Opening without a window between the sandbox check and the open.
 *
 * The sandbox resolves a path and checks it; a folder on that path can be swapped for a symlink a
 * moment later, and a plain open would then follow it out of the workspace. Node has no openat(),
 * so on Linux every open is checked afterwards by asking the kernel where the opened file really is
 * (`/proc/self/fd/N`), and files are created and renamed through `/proc/self/fd/<dir>/<name>`, which
 * resolves the name inside the folder that was opened and checked, whatever its path has become.
 * Elsewhere (macOS, Windows) the best that can be done is to compare the opened file's identity
 * with a fresh resolution of its path; that narrows the window without closing it.
 */

/** `/proc/self/fd` on Linux; undefined where the kernel offers no such view. */
export const PROC_FD: string | undefined = process.platform === 'linux' && existsSync('/proc/self/fd') ? '/proc/self/fd' : undefined;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;
/** Opens a folder as a handle: never through a symlink at its last step. */
export const DIR_FLAGS = constants.O_RDONLY | DIRECTORY | NOFOLLOW;

function moved(shownAs: string, where?: string): ToolError {
  const to = where ? ` (it led to ${where})` : '';
  return new ToolError(
    `"${shownAs}" was moved or replaced by a symlink leading outside the workspace while it was being opened${to}; ` +
      'nothing outside was read or written. Try again once the folder stops changing.',
  );
}

/** Where the kernel says the open file `fd` is, or undefined where it cannot say. */
function openedPath(fd: number): string | undefined {
  if (!PROC_FD) return undefined;
  const link = readlinkSync(`${PROC_FD}/${fd}`);
  // A file deleted after it was opened is shown as "<path> (deleted)".
  return link.endsWith(' (deleted)') ? link.slice(0, -' (deleted)'.length) : link;
}

/**
 * Throws unless the open file `fd` lies inside `root`. `expected` is the real path it was opened
 * by; it is only used where the kernel cannot name an open file.
 */
export function assertOpenedInside(fd: number, root: string, expected: string, shownAs: string): void {
  const where = openedPath(fd);
  if (where !== undefined) {
    if (!isInside(root, where)) throw moved(shownAs, where);
    return;
  }
  let again: string;
  try {
    again = realpathSync(expected);
  } catch {
    throw moved(shownAs);
  }
  const now = lstatSync(again, { throwIfNoEntry: false });
  const opened = fstatSync(fd);
  if (!isInside(root, again) || !now || now.dev !== opened.dev || now.ino !== opened.ino) throw moved(shownAs);
}

/** Opens `real` (a sandbox-checked path) and makes sure what was opened is inside `root`. */
export async function openInside(root: string, real: string, flags: number, shownAs: string): Promise<FileHandle> {
  const fh = await open(real, flags);
  try {
    assertOpenedInside(fh.fd, root, real, shownAs);
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** The same, synchronously, for worker threads that walk and read many files. */
export function openInsideSync(root: string, real: string, flags: number, shownAs: string): number {
  const fd = openSync(real, flags);
  try {
    assertOpenedInside(fd, root, real, shownAs);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/**
 * A name inside an open, checked folder: resolved against that folder itself, not against the
 * path it was opened by. Without /proc, the folder's path is the best there is.
 */
export function inOpenDir(dirFd: number, dirReal: string, name: string): string {
  return PROC_FD ? `${PROC_FD}/${dirFd}/${name}` : join(dirReal, name);
}

/**
 * Creates folder `name` inside `parentReal` (checked to be in `root` at the moment of creation) and
 * returns its path. An existing folder of that name is fine.
 */
export async function mkdirInside(root: string, parentReal: string, name: string, shownAs: string): Promise<string> {
  const made = join(parentReal, name);
  if (!PROC_FD) {
    await mkdir(made).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    return made;
  }
  const dir = await openInside(root, parentReal, DIR_FLAGS, shownAs).catch((err: unknown) => {
    throw symlinkedDir(err, parentReal, shownAs);
  });
  try {
    await mkdir(inOpenDir(dir.fd, parentReal, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  } finally {
    await dir.close();
  }
  return made;
}

/**
 * Opens folder `real` for listing, checked to be inside `root`: on Linux it is opened as a handle
 * (never through a symlink at its last step), checked, and listed through that handle.
 */
export function opendirInsideSync(root: string, real: string, shownAs: string): Dir {
  if (!PROC_FD) return opendirSync(real, { bufferSize: 1024 });
  let fd: number;
  try {
    fd = openSync(real, DIR_FLAGS);
  } catch (err) {
    throw symlinkedDir(err, real, shownAs);
  }
  try {
    assertOpenedInside(fd, root, real, shownAs);
    return opendirSync(`${PROC_FD}/${fd}`, { bufferSize: 1024 });
  } finally {
    closeSync(fd);
  }
}

/**
 * A folder opened without following a symlink fails with ELOOP, or ENOTDIR with O_DIRECTORY, when
 * a symlink has taken its place: say so. Any other failure is passed on as it is.
 */
function symlinkedDir(err: unknown, real: string, shownAs: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ELOOP' && code !== 'ENOTDIR') return err;
  return lstatSync(real, { throwIfNoEntry: false })?.isSymbolicLink() ? moved(shownAs) : err;
}
