import { open, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { locateWasm } from './sql-wasm';

/**
 * The demo database of the agent-mcp-v1 seed: its schema and rows exactly, so the seed's own
 * examples work as written (a seed-shaped INSERT names only title, author, year and genre).
 * One source for the VS Code command, the CLI's --create-sample-db and sample-workspace/data.db.
 */
const SAMPLE_DB_FILE = 'data.db';

const SAMPLE_SCHEMA = `
CREATE TABLE books (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  title TEXT NOT NULL,
  author TEXT NOT NULL,
  year INTEGER,
  genre TEXT
);
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  email TEXT UNIQUE,
  favorite_genre TEXT
);
CREATE INDEX books_genre ON books(genre);
`;

/** title, author, year, genre: the seed's 8 books across its 5 genres. */
export const SAMPLE_BOOKS: ReadonlyArray<readonly [string, string, number, string]> = [
  ['To Kill a Mockingbird', 'Harper Lee', 1960, 'Fiction'],
  ['The Great Gatsby', 'F. Scott Fitzgerald', 1925, 'Fiction'],
  ['1984', 'George Orwell', 1949, 'Dystopian'],
  ['Brave New World', 'Aldous Huxley', 1932, 'Dystopian'],
  ['Neuromancer', 'William Gibson', 1984, 'Science Fiction'],
  ['The Left Hand of Darkness', 'Ursula K. Le Guin', 1969, 'Science Fiction'],
  ['The Hobbit', 'J.R.R. Tolkien', 1937, 'Fantasy'],
  ['Pride and Prejudice', 'Jane Austen', 1813, 'Romance'],
];

/** name, email, favorite_genre: one reader per genre, so users JOIN books ON genre finds books for each. */
export const SAMPLE_USERS: ReadonlyArray<readonly [string, string, string]> = [
  ['Alice Johnson', 'alice@example.com', 'Science Fiction'],
  ['Bob Smith', 'bob@example.com', 'Fantasy'],
  ['Carol White', 'carol@example.com', 'Fiction'],
  ['David Brown', 'david@example.com', 'Dystopian'],
  ['Eve Davis', 'eve@example.com', 'Romance'],
];

/** The database file's bytes. sql.js is loaded only here, on request, so nothing pays for it at start-up. */
export async function sampleDbBytes(): Promise<Uint8Array> {
  const { default: initSqlJs } = await import('sql.js');
  const SQL = await initSqlJs({ locateFile: locateWasm });
  const db = new SQL.Database();
  try {
    db.run(SAMPLE_SCHEMA);
    const addBook = db.prepare('INSERT INTO books (title, author, year, genre) VALUES (?, ?, ?, ?)');
    for (const b of SAMPLE_BOOKS) addBook.run([...b]);
    addBook.free();
    const addUser = db.prepare('INSERT INTO users (name, email, favorite_genre) VALUES (?, ?, ?)');
    for (const u of SAMPLE_USERS) addUser.run([...u]);
    addUser.free();
    return db.export();
  } finally {
    db.close();
  }
}

/** `exists`: there was a data.db already (fine for a person who asked twice); `refused`: it could not be made. */
export type SampleDbOutcome = { kind: 'created'; path: string } | { kind: 'exists' | 'refused'; path: string; reason: string };

/**
 * Creates data.db in `workspaceDir` when there is none. Never replaces anything: the file is
 * opened with O_EXCL, so an existing database, a folder or even a dangling symlink of that name
 * is left alone and reported.
 */
export async function createSampleDb(workspaceDir: string): Promise<SampleDbOutcome> {
  const path = join(workspaceDir, SAMPLE_DB_FILE);
  const bytes = await sampleDbBytes();
  let file: FileHandle;
  try {
    file = await open(path, 'wx', 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return { kind: 'exists', path, reason: `${SAMPLE_DB_FILE} already exists there; it was left unchanged` };
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'refused', path, reason: `the folder ${workspaceDir} does not exist` };
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return { kind: 'refused', path, reason: `the folder is not writable (${code})` };
    throw err;
  }
  try {
    await file.writeFile(bytes);
    await file.close();
  } catch (err) {
    // A half-written database (disk full) would pass for the real one next time: it goes.
    await file.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw err;
  }
  return { kind: 'created', path };
}

/** What a person is told after a successful create. */
export function sampleDbSummary(): string {
  const genres = new Set(SAMPLE_BOOKS.map((b) => b[3]));
  return `${SAMPLE_BOOKS.length} books in ${genres.size} genres and ${SAMPLE_USERS.length} users (tables books and users)`;
}
