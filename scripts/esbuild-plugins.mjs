// esbuild plugins and options for the bundles the project ships (esbuild.mjs uses them; bench/lib/setup.mjs too).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * V8 keeps a script's source for as long as the script lives (lazy functions compile from it later).
 * esbuild escapes non-ASCII characters in code (`charset: 'ascii'`) but leaves the comments it keeps as
 * they were written, and one em dash in one of them (zod has several) makes the whole bundle a two-byte
 * string: twice its size in every process that loads it. Each
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
        writeFileSync(file.path, nonAscii ? file.text.replace(/[\u0080-\uffff]/g, '?') : file.contents);
      }
    });
  },
};

/**
 * How --production minifies a server: whitespace and syntax, but not its names. A server is a process of its
 * own, and one built with mangled names idles higher, all of it memory glibc's malloc keeps after V8 has parsed the
 * bundle (bench/README.md). The price is a somewhat larger server file; the extension keeps full minification, as its size counts.
 */
export const SERVER_MINIFY = { minify: false, minifyWhitespace: true, minifySyntax: true };

/** Code only a server's worker threads run, each its own bundle in dist/servers/: the server's main thread never holds its source. */
export const SERVER_WORKERS = [{ server: 'web', entry: 'servers/web/html-worker-main.ts', file: 'web-html-worker.js' }];

/** The bundled servers' 2026-07-28 side (servers/lib/modern-era.ts), one bundle beside them that all four load. */
export const MODERN_ERA = { entry: 'servers/lib/modern-era.ts', file: 'modern-era.js' };

/**
 * A server's import() of ./modern-era becomes a require of the bundle beside it, built once from MODERN_ERA: the
 * v2 server package is parsed only when a 2026-07-28 client comes. A static import would inline it: refused.
 */
export const modernEraSplit = {
  name: 'modern-era-split',
  setup(build) {
    build.onResolve({ filter: /^\.\/modern-era$/ }, (args) => {
      if (args.kind === 'dynamic-import' || args.kind === 'require-call') return { path: `./${MODERN_ERA.file}`, external: true };
      return { errors: [{ text: `./modern-era is loaded only for a 2026-07-28 client: import() it where it is used, in ${args.importer}` }] };
    });
  },
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The SDK's Client and Server, the only importers of its Ajv provider. */
const SDK_ENDPOINT = /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/](?:esm|cjs)[\\/](?:client|server)[\\/]index\.js$/;

/**
 * The SDK's Client and Server construct an Ajv validator (ajv, ajv-formats, fast-uri) whatever they are
 * given, so their import of it is pointed at src/node/json-schema-validator.ts, which loads the SDK's own
 * provider on the first schema.
 */
export const lazyAjv = {
  name: 'lazy-ajv',
  setup(build) {
    const redirected = mustRedirect(build, 'lazy-ajv', SDK_ENDPOINT, "the v1 SDK's Client or Server no longer imports validation/ajv-provider.js");
    build.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) =>
      SDK_ENDPOINT.test(args.importer) ? redirected({ path: join(ROOT, 'src', 'node', 'json-schema-validator.ts') }) : undefined,
    );
  },
};

/**
 * A redirect of a package's internal import matches only while the package keeps that import: a release that renames
 * it would slip past, and the build would quietly hold Ajv again. `bundled` names the package's modules that must
 * have taken the redirect; a build that loads one of them without the redirect firing fails, saying which. Returns
 * what the redirect calls with its result when it fires.
 */
function mustRedirect(build, name, bundled, changed) {
  let loaded = 0;
  let fired = 0;
  build.onStart(() => {
    loaded = fired = 0;
  });
  build.onLoad({ filter: bundled }, () => {
    loaded++;
    return undefined;
  });
  build.onEnd((result) => {
    if (result.errors.length > 0 || loaded === 0 || fired > 0) return;
    result.errors.push({ text: `${name}: ${changed}, so the redirect in scripts/esbuild-plugins.mjs matched nothing and Ajv would load at start; update it` });
  });
  return (resolved) => {
    fired++;
    return resolved;
  };
}

/** The v2 packages' entry modules, the importers of their `_shims`. */
const V2_ENTRY = (pkg) => new RegExp(`[\\\\/]@modelcontextprotocol[\\\\/]${pkg}[\\\\/]dist[\\\\/]index\\.(?:m|c)?js$`);

/**
 * The v2 MCP client's Node shim, with its Ajv validator made and loaded on first use: its own `_shims` import
 * points at src/node/mcp-client-shims.ts (the same two exports), so Ajv's chunk is reached only from there.
 */
export const lazyClientAjv = {
  name: 'lazy-client-ajv',
  setup(build) {
    const redirected = mustRedirect(build, 'lazy-client-ajv', V2_ENTRY('client'), '@modelcontextprotocol/client no longer imports its `_shims`');
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => redirected({ path: join(ROOT, 'src', 'node', 'mcp-client-shims.ts') }));
  },
};

/** The v2 server package's Ajv validator, a bundle beside the servers that the 2026-07-28 side loads on first use. */
export const SERVER_AJV = { module: '@modelcontextprotocol/server/validators/ajv', file: 'server-ajv.js' };

/**
 * The v2 MCP server package's Node shim, with its Ajv validator loaded on first use: its own `_shims` import points
 * at servers/lib/mcp-server-shims.ts (the same two exports), whose require of the validator is left as a require of
 * SERVER_AJV's bundle beside it. For the servers' builds only: the bundle is in dist/servers/.
 */
export const lazyServerAjv = {
  name: 'lazy-server-ajv',
  setup(build) {
    const shim = join(ROOT, 'servers', 'lib', 'mcp-server-shims.ts');
    const redirected = mustRedirect(build, 'lazy-server-ajv', V2_ENTRY('server'), '@modelcontextprotocol/server no longer imports its `_shims`');
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => redirected({ path: shim }));
    build.onResolve({ filter: /^@modelcontextprotocol\/server\/validators\/ajv$/ }, (args) =>
      args.importer === shim ? { path: `./${SERVER_AJV.file}`, external: true } : undefined,
    );
  },
};

/** The build of SERVER_AJV's bundle into `dir`: the validator module's exports as module.exports. */
export function serverAjvBundle(options, dir) {
  return {
    ...options,
    stdin: { contents: `module.exports = require(${JSON.stringify(SERVER_AJV.module)});`, resolveDir: ROOT, sourcefile: 'server-ajv.js' },
    outfile: join(dir, SERVER_AJV.file),
  };
}

/**
 * What the extension loads only when a command or a server needs it, each as its own bundle in dist/lazy/
 * (esbuild's CJS output does not split). Minified sizes as measured with the metafile.
 */
export const LAZY_MODULES = {
  // The Public Suffix List: only to show whose site a URL an elicitation asks to open is (131 KiB).
  tldts: 'tldts.js',
  // SQLite in wasm: only for "Create Sample Database" (42 KiB, and its 670 KiB wasm file).
  'sql.js': 'sql.js',
  // The v2 client's Ajv with its formats and dialects: only for a tool's outputSchema or an elicitation's answer
  // (150 KiB; src/node/mcp-client-shims.ts).
  '@modelcontextprotocol/client/validators/ajv': 'client-ajv.js',
  // MCP Apps' host side (ext-apps' AppBridge and its SDK v2 schemas): only once a view is drawn (app-bridge-host.ts).
  '@modelcontextprotocol/ext-apps/app-bridge': 'app-bridge.js',
  // The Anthropic SDK's client (src/core/agent/model-sdk.ts): only once a turn or the model list calls the API (114 KiB).
  './model-sdk': 'model-sdk.js',
};

/** Where a LAZY_MODULES name that is a file of ours (required by a relative path) is, from the root. */
const LAZY_SOURCES = { './model-sdk': './src/core/agent/model-sdk.ts' };

/**
 * A require() or import() of a LAZY_MODULES name is left as a require of ./lazy/<file>, next to the bundle;
 * a static import would put the module back into the bundle, so it fails the build and says where.
 */
export const lazySplit = {
  name: 'lazy-split',
  setup(build) {
    // The Anthropic SDK is reached only through model-sdk.ts (itself lazy): any other value import of it would
    // put it back in the bundle unseen.
    build.onResolve({ filter: /^@anthropic-ai\/sdk(\/|$)/ }, (args) => ({
      errors: [{ text: `${args.path} is loaded on first use: use src/core/agent/model-client.ts (modelSdk()), in ${args.importer}` }],
    }));
    const names = Object.keys(LAZY_MODULES).map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    build.onResolve({ filter: new RegExp(`^(?:${names.join('|')})$`) }, (args) => {
      if (args.kind === 'require-call' || args.kind === 'dynamic-import') return { path: `./lazy/${LAZY_MODULES[args.path]}`, external: true };
      return {
        errors: [
          {
            text: `${args.path} is loaded on first use (LAZY_MODULES in scripts/esbuild-plugins.mjs): require() or import() it where it is used, in ${args.importer}`,
          },
        ],
      };
    });
  },
};

/** The build of each LAZY_MODULES bundle into `dir`: the module's exports as module.exports. */
export function lazyBundles(options, dir) {
  return Object.entries(LAZY_MODULES).map(([module, file]) => ({
    ...options,
    stdin: { contents: `module.exports = require(${JSON.stringify(LAZY_SOURCES[module] ?? module)});`, resolveDir: ROOT, sourcefile: `lazy-${file}` },
    outfile: join(dir, file),
  }));
}

/**
 * ext-tasks' 2026-07-28 schemas import zod as `{ z }`: the namespace as one value, which keeps all of zod in a bundle,
 * its error messages in every language too (bench/README.md, `sizes`). Read as `* as z`, the same member uses (z.object, z.string…) let esbuild keep only what they use: the
 * same code and the same zod, one copy shared with the SDK's (so its classes stay one).
 */
export const zodNamespace = {
  name: 'zod-namespace',
  setup(build) {
    let loaded = 0;
    let rewritten = 0;
    build.onStart(() => {
      loaded = rewritten = 0;
    });
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]ext-tasks[\\/]dist[\\/].*\.js$/ }, (args) => {
      loaded++;
      const text = readFileSync(args.path, 'utf8');
      const contents = text.replace(/^import \{ z \} from "zod\/v4";$/m, 'import * as z from "zod/v4";');
      if (contents !== text) rewritten++;
      // A new spelling of the import would slip past the rewrite and quietly bring all of zod back: fail instead.
      if (/import\s*\{\s*z\s*\}\s*from\s*["']zod/.test(contents)) {
        throw new Error(`zod-namespace: ${args.path} imports zod as { z } in a form the rewrite does not know; update scripts/esbuild-plugins.mjs`);
      }
      return { contents, loader: 'js' };
    });
    build.onEnd((result) => {
      if (result.errors.length === 0 && loaded > 0 && rewritten === 0) {
        throw new Error(
          'zod-namespace: no file of @modelcontextprotocol/ext-tasks imports zod as the rewrite expects any more; update or drop it (scripts/esbuild-plugins.mjs)',
        );
      }
    });
  },
};

/** Packages that export ES modules only (no `require` or `default` in their `exports`). */
const ESM_ONLY = ['@modelcontextprotocol/ext-tasks'];

/**
 * The test bundles leave packages in node_modules (`packages: 'external'`) for Node to require(), which a package
 * exporting ES modules only refuses (ERR_PACKAGE_PATH_NOT_EXPORTED): those are bundled in, as the shipped bundles do.
 */
export const bundleEsmOnly = {
  name: 'bundle-esm-only',
  setup(build) {
    for (const pkg of ESM_ONLY) {
      const dir = join(ROOT, 'node_modules', pkg);
      const filter = new RegExp(`^${pkg.replace(/[/.]/g, '\\$&')}(/|$)`);
      build.onResolve({ filter }, (args) => {
        const sub = `.${args.path.slice(pkg.length)}`;
        const target = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports?.[sub]?.import;
        if (!target) return { errors: [{ text: `${args.path}: ${pkg} exports no ${sub}` }] };
        return { path: join(dir, target) };
      });
    }
  },
};

/**
 * Node bundles: CommonJS for Node 20. jsonc-parser's `main` is a UMD build whose inner require() calls esbuild
 * cannot follow (the bundle then fails at run time with "Cannot find module './impl/format'"); its ES module
 * build bundles cleanly. import() of what is not bundled becomes require(): Node's import() of a CommonJS file
 * scans all of its source for export names first (cjs-module-lexer), which slowed a server's 2026-07-28 start
 * loading modern-era.js (bench/README.md, `eras`), and VS Code loads extensions with require.
 */
export const NODE_TARGET = {
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  supported: { 'dynamic-import': false },
};

/** The plugins of every bundle that ships and runs as its own process, in esbuild.mjs and the bench's builds alike. */
export const SHIPPED_PLUGINS = [asciiSource, lazyAjv, lazyClientAjv, zodNamespace];

/** What a server's build is given: the shipped plugins, the split 2026-07-28 side and its lazy validator. */
export const SERVER_PLUGINS = [...SHIPPED_PLUGINS, modernEraSplit, lazyServerAjv];

/** Where a server hands modern-era.js its zod (servers/lib/modern-era-loader.ts): a global symbol, one per process. */
const MODERN_ZOD_KEY = 'mcp-agent.modern-era.zod';
const MODERN_ERA_LOADER = join(ROOT, 'servers', 'lib', 'modern-era-loader.ts');
/** How the v2 packages import zod; any other form fails the build rather than bring a copy back unseen. */
const ZOD_NAMESPACE_IMPORT = /^import \* as z from ["']zod(?:\/v4)?["'];$/gm;
const ANY_ZOD_IMPORT = /\bfrom\s*["']zod[^"']*["']|\brequire\(\s*["']zod[^"']*["']\s*\)|\bimport\(\s*["']zod[^"']*["']\s*\)/g;

/** The members servers/lib/modern-era-loader.ts hands over: the `name: z.name,` lines of its MODERN_ZOD. */
function handedZodMembers() {
  const text = readFileSync(MODERN_ERA_LOADER, 'utf8');
  const names = [...text.matchAll(/^\s+(\w+): z\.\1,$/gm)].map((m) => m[1]);
  if (!text.includes(`Symbol.for('${MODERN_ZOD_KEY}')`) || names.length === 0) {
    throw new Error(
      `shared-zod: ${MODERN_ERA_LOADER} no longer hands zod over as scripts/esbuild-plugins.mjs reads it (MODERN_ZOD, ${MODERN_ZOD_KEY}); update both`,
    );
  }
  return new Set(names);
}

/** What is wrong with how `file` uses zod for modern-era.js to take the server's: undefined when nothing. */
function zodUseProblem(file, zod, handed) {
  const text = readFileSync(file, 'utf8');
  const imports = text.match(ANY_ZOD_IMPORT)?.length ?? 0;
  if (imports !== (text.match(ZOD_NAMESPACE_IMPORT)?.length ?? 0)) return `${file} imports zod in a form other than \`import * as z from "zod/v4"\``;
  // Members named in comments (`z.input<>`) are not read: comments on lines of their own are left out, and of what
  // is left, only what zod exports at run time counts.
  const code = text.replace(/^\s*\/\*[\s\S]*?\*\//gm, '').replace(/^\s*\/\/.*$/gm, '');
  const read = new Set([...code.matchAll(/(?<![\w$.])z\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]).filter((name) => name in zod));
  const missing = [...read].filter((name) => !handed.has(name));
  if (missing.length > 0) return `${file} reads z.${missing.join(', z.')}, which ${MODERN_ERA_LOADER} does not hand over (MODERN_ZOD)`;
  return undefined;
}

/**
 * modern-era.js takes zod from the server bundle that requires it instead of carrying a second copy (esbuild's
 * CommonJS bundles share no chunks): the v2 packages' `import * as z from "zod/v4"` becomes a read of the members the
 * server registered first (servers/lib/modern-era-loader.ts). One copy of zod's code and classes per process; what the
 * server bundle keeps of zod grows only by the members the v2 packages read that the server does not. A v2 file that
 * imports zod another way or reads a member not handed over fails this build, so a new SDK cannot bring the copy back
 * unseen or leave a member undefined at run time. For MODERN_ERA's build only.
 */
export const sharedZod = {
  name: 'shared-zod',
  async setup(build) {
    const zod = await import('zod/v4');
    let handed;
    build.onStart(() => {
      handed = handedZodMembers();
    });
    build.onResolve({ filter: /^zod(\/|$)/ }, (args) => {
      const problem = zodUseProblem(args.importer, zod, handed);
      if (problem) return { errors: [{ text: `shared-zod: ${problem}; update servers/lib/modern-era-loader.ts or scripts/esbuild-plugins.mjs` }] };
      return { path: 'zod', namespace: 'shared-zod' };
    });
    build.onLoad({ filter: /.*/, namespace: 'shared-zod' }, () => ({
      contents: [
        `const zod = globalThis[Symbol.for(${JSON.stringify(MODERN_ZOD_KEY)})];`,
        "if (!zod) throw new Error('modern-era.js takes zod from the server that loads it: load it with loadModernEra() (servers/lib/modern-era-loader.ts)');",
        'module.exports = zod;',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

/** What MODERN_ERA's build is given: a server's plugins, and zod taken from the server that loads it. */
export const MODERN_ERA_PLUGINS = [...SERVER_PLUGINS, sharedZod];
