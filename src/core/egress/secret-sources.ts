/**
 * Secret sources by name: files that hold secrets by convention (`.env`, keys, credential folders). What comes
 * from one is labelled secret where it enters the chat (labels.ts), whatever it looks like. Names are matched,
 * not contents of files the host never sees (code that opens a file by a computed name).
 */

/** File names that hold secrets by convention (matched against the last path segment, case-insensitively). */
const SECRET_FILE = [
  /^\.env$/,
  // `.env.local`, `.env.production`…, but not the templates committed on purpose.
  /^\.env\.(?!example$|sample$|template$|dist$|defaults$)[\w.-]+$/,
  /\.(pem|key|p12|pfx|jks|keystore|ppk|asc|gpg|kdbx)$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/,
  /^\.(netrc|_netrc|npmrc|pypirc|pgpass|git-credentials|htpasswd|dockercfg|s3cfg|boto)$/,
  /^_netrc$/,
  /^(credentials|secrets?)(\.[\w-]+)?$/,
  /^service[-_]?account.*\.json$/,
  /^kubeconfig$/,
  /\.tfstate(\.backup)?$/,
];

/** Folders whose every file is a credential (matched as a path segment). */
const SECRET_FOLDERS = ['.ssh', '.aws', '.gnupg', '.kube', '.azure', '.docker', 'gcloud'];

/** True for a path that names a secret-looking file or lies in a credential folder. */
export function isSecretPath(path: string): boolean {
  const segments = path
    .replace(/^file:(\/\/[^/]*)?/i, '')
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.')
    .map((s) => s.toLowerCase());
  const last = segments.at(-1);
  if (last === undefined) return false;
  if (SECRET_FILE.some((re) => re.test(last))) return true;
  return segments.slice(0, -1).some((s) => SECRET_FOLDERS.includes(s));
}

/** Secret-looking file names inside code or a command (`open('.env')`, `cat ~/.ssh/id_rsa`). */
export function secretNameIn(text: string): string | undefined {
  // Only tokens shaped like a file name: a bare word such as `credentials` is usually a variable.
  return (text.match(/[\w./~-]+/g) ?? []).find((t) => (/[./]/.test(t) || t.startsWith('id_')) && isSecretPath(t));
}

/** Arguments that hold code or a command line rather than a path. */
export const CODE_KEY = /^(code|command|cmd|script|shell|sql)$/i;
