// esbuild plugins for the bundles the project ships (esbuild.mjs uses them; bench/lib/setup.mjs too).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * V8 keeps a script's source for as long as the script lives (lazy functions compile from it later).
 * esbuild escapes non-ASCII characters in code (`charset: 'ascii'`) but leaves the comments it keeps as
 * they were written, and one em dash in one of them (zod has several) makes the whole bundle a two-byte
 * string: twice its size in every process that loads it, 1.2 MiB more for the workspace server. Each
 * such UTF-16 unit becomes '?', one for one, so the source map's columns still hold. A minified build
 * keeps no comments, so this only changes the dev build.
 */
export const asciiSource = {
  name: 'ascii-source',
  setup(build) {
    build.initialOptions.write = false;
    build.onEnd((result) => {
      for (const file of result.outputFiles ?? []) {
        mkdirSync(dirname(file.path), { recursive: true });
        const nonAscii = file.path.endsWith('.js') && file.contents.some((byte) => byte > 0x7f);
        writeFileSync(file.path, nonAscii ? file.text.replace(/[^\x00-\x7f]/g, '?') : file.contents);
      }
    });
  },
};
