// Enforces the layer rules of docs/architecture.md on every import in the product code (tests excluded):
//   media/ (webview)   -> media/, src/common/ only; no Node built-ins
//   src/common/        -> src/common/ only; no Node built-ins (the webview bundles it)
//   src/node/          -> src/node/ only (the sandbox and sensitive-path list that core and servers share)
//   src/core/          -> src/core/, src/node/, src/common/; never 'vscode', servers/ or the front ends
//   src/vscode/, src/extension.ts -> src/vscode/, src/core/, src/node/, src/common/, 'vscode'
//   src/cli/           -> src/cli/, src/core/, src/node/, src/common/; never 'vscode'
//   servers/           -> servers/, src/node/; servers/orchestrator/ may also use src/core/ and src/common/
// Imports are read with the TypeScript compiler's own pre-processor, so `import type` and
// `export ... from` count too. Usage: node scripts/check-layers.mjs [root]; exits 1 on a violation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Each layer: which files belong to it and which internal layers and externals it may import. */
const LAYERS = [
  { name: 'webview', match: (f) => f.startsWith('media/'), may: ['webview', 'common'], node: false, vscode: false },
  { name: 'common', match: (f) => f.startsWith('src/common/'), may: ['common'], node: false, vscode: false },
  { name: 'node', match: (f) => f.startsWith('src/node/'), may: ['node'], node: true, vscode: false },
  { name: 'core', match: (f) => f.startsWith('src/core/'), may: ['core', 'node', 'common'], node: true, vscode: false },
  {
    name: 'vscode',
    match: (f) => f.startsWith('src/vscode/') || f === 'src/extension.ts',
    may: ['vscode', 'core', 'node', 'common'],
    node: true,
    vscode: true,
  },
  { name: 'cli', match: (f) => f.startsWith('src/cli/'), may: ['cli', 'core', 'node', 'common'], node: true, vscode: false },
  {
    name: 'orchestrator',
    match: (f) => f.startsWith('servers/orchestrator/'),
    may: ['orchestrator', 'servers', 'core', 'node', 'common'],
    node: true,
    vscode: false,
  },
  { name: 'servers', match: (f) => f.startsWith('servers/'), may: ['servers', 'node'], node: true, vscode: false },
];

function layerOf(rel) {
  return LAYERS.find((l) => l.match(rel));
}

function sourceFiles(root, dir) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(join(root, p)).isDirectory()) return sourceFiles(root, p);
    return /\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [p.split(sep).join('/')] : [];
  });
}

/** Every import of one file that breaks its layer's rules, as `file: reason` lines. */
function checkFile(root, rel) {
  const layer = layerOf(rel);
  // A product file of no layer would be checked against nothing: a folder moved without a rule here.
  if (!layer) return [`${rel}: belongs to no layer (add its folder to LAYERS in scripts/check-layers.mjs)`];
  const text = readFileSync(join(root, rel), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const out = [];
  for (const ref of info.importedFiles) {
    const spec = ref.fileName;
    const where = `${rel}: imports '${spec}'`;
    if (spec === 'vscode') {
      if (!layer.vscode) out.push(`${where}, but the ${layer.name} layer must not depend on the editor`);
      continue;
    }
    if (NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split('/')[0])) {
      if (!layer.node) out.push(`${where}, a Node built-in, but the ${layer.name} layer runs in the browser`);
      continue;
    }
    if (!spec.startsWith('.')) continue; // an npm package
    const target = relative(root, resolve(root, dirname(rel), spec))
      .split(sep)
      .join('/');
    const to = layerOf(target.endsWith('.ts') ? target : `${target}.ts`) ?? layerOf(`${target}/`);
    if (!to) {
      out.push(`${where}, which is outside every layer (${target})`);
    } else if (!layer.may.includes(to.name)) {
      out.push(`${where}: the ${layer.name} layer may use ${layer.may.join(', ')}, not ${to.name}`);
    }
  }
  return out;
}

/** All violations under `root` (the repository). */
export function checkLayers(root) {
  const files = ['media', 'src', 'servers'].flatMap((d) => sourceFiles(root, d));
  return files.flatMap((f) => checkFile(root, f));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
  const violations = checkLayers(root);
  if (violations.length) {
    console.error(`layer check: ${violations.length} import(s) break the rules in docs/architecture.md:\n  ${violations.join('\n  ')}`);
    process.exit(1);
  }
  console.log('layer check: every import follows the layer rules');
}
