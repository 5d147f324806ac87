// `npm run package`: checks what a marketplace listing needs, builds for production and packages
// mcp-agent.vsix with the user-facing details page (docs/marketplace/README.md, not the developer README).
// Fails, saying what is wrong, on a missing icon, changelog or keyword, a made-up link, or a VSIX over 5 MB.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const DETAILS = 'docs/marketplace/README.md';
const MAX_VSIX = 5 * 1024 * 1024;
// The categories the marketplace accepts (vsce's list).
const CATEGORIES = [
  'AI',
  'Azure',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
  'Other',
];

/** The width and height of a PNG, from its IHDR chunk. */
function pngSize(file) {
  const b = readFileSync(file);
  if (b.length < 24 || b.toString('latin1', 1, 4) !== 'PNG') return undefined;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

const problems = [];
const need = (ok, what) => ok || problems.push(what);
const icon = pkg.icon && join(root, pkg.icon);
need(icon && existsSync(icon), `package.json "icon" must name a PNG that exists (${pkg.icon ?? 'unset'})`);
if (icon && existsSync(icon)) {
  const size = pngSize(icon);
  need(
    size && size[0] >= 128 && size[0] === size[1],
    `the icon must be a square PNG of at least 128 px (${size ? size.join('x') : 'not a PNG'}); node scripts/render-icon.mjs makes it`,
  );
}
need(
  pkg.galleryBanner?.color && ['dark', 'light'].includes(pkg.galleryBanner.theme),
  'package.json needs a galleryBanner with a color and a dark or light theme',
);
need(Array.isArray(pkg.keywords) && pkg.keywords.length > 0 && pkg.keywords.length <= 30, 'package.json needs 1 to 30 keywords');
need(
  Array.isArray(pkg.categories) && pkg.categories.length > 0 && pkg.categories.every((c) => CATEGORIES.includes(c)),
  `categories must be from the marketplace's list (${pkg.categories})`,
);
need(
  existsSync(join(root, 'CHANGELOG.md')) && readFileSync(join(root, 'CHANGELOG.md'), 'utf8').includes(`## ${pkg.version}`),
  `CHANGELOG.md needs a section for ${pkg.version}`,
);
need(existsSync(join(root, DETAILS)), `${DETAILS} (the details page) is missing`);
// A link the project does not own is worse than none: example.invalid and the like never reach the listing.
const placeholder = /example\.(invalid|com|org)|your-?org|TODO/i;
need(
  !placeholder.test(JSON.stringify({ repository: pkg.repository, homepage: pkg.homepage, bugs: pkg.bugs })),
  'package.json names a placeholder link (repository, homepage or bugs)',
);
if (existsSync(join(root, DETAILS)))
  need(!/\]\((https?:)?\/\/[^)]*example\./.test(readFileSync(join(root, DETAILS), 'utf8')), `${DETAILS} links to an example host`);
if (problems.length > 0) {
  console.error(`npm run package: the listing is not ready:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}

function run(cmd, args) {
  console.log(`> ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status || 1);
}
run(process.execPath, ['esbuild.mjs', '--production']);
// No repository is named (the project has no public one yet), so vsce is told so rather than given a made-up one.
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
run(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--readme-path', DETAILS, '-o', 'mcp-agent.vsix']);
const size = statSync(join(root, 'mcp-agent.vsix')).size;
if (size > MAX_VSIX) {
  console.error(`mcp-agent.vsix is ${(size / 1024 / 1024).toFixed(2)} MB, over the ${MAX_VSIX / 1024 / 1024} MB it may be`);
  process.exit(1);
}
console.log(`mcp-agent.vsix: ${(size / 1024 / 1024).toFixed(2)} MB`);
