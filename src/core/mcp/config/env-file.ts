import { readFileSync, statSync } from 'node:fs';
import { parse } from 'dotenv';

/** An env file bigger than this is not a list of settings; refusing it keeps a FIFO or a huge file from hanging the load. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

/** The variables of an envFile (`KEY=value` lines, dotenv's rules). Throws an Error a person can act on. */
export function readEnvFile(path: string): Record<string, string> {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error(`envFile ${path} is not a regular file`);
    size = st.size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`envFile ${path} does not exist`, { cause: err });
    throw err;
  }
  if (size > MAX_ENV_FILE_BYTES) throw new Error(`envFile ${path} is ${size} bytes; an env file may have at most ${MAX_ENV_FILE_BYTES}`);
  return parse(readFileSync(path));
}
