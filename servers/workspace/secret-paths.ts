import { join } from 'node:path';

/**
 * Where people keep credentials under their home folder: hidden from run_code's sandbox (an empty folder or
 * an empty file appears in their place), whatever else of the home folder the code may read.
 */
const SECRET_DIRS = [
  '.ssh',
  '.aws',
  '.azure',
  '.gnupg',
  '.docker',
  '.kube',
  '.password-store',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/op',
  '.config/doctl',
  '.config/anthropic',
  '.config/claude',
  '.claude',
  '.mozilla',
  '.thunderbird',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.local/share/keyrings',
  '.pki',
  'Library/Keychains',
];

const SECRET_FILES = ['.netrc', '.git-credentials', '.npmrc', '.pypirc', '.yarnrc', '.pgpass', '.my.cnf', '.vault-token', '.boto', '.claude.json'];

/** The credential folders and files under `home` (whether or not they exist). */
export function secretPaths(home: string): { dirs: string[]; files: string[] } {
  return { dirs: SECRET_DIRS.map((d) => join(home, d)), files: SECRET_FILES.map((f) => join(home, f)) };
}
