/**
 * What a credential looks like where its source cannot tell: key material, tokens of the shapes providers issue,
 * a password inside a URL, and a value under a key named like a secret, however it is written around (an
 * `.env` line, a search hit `.env:1:API_KEY=…`, pretty-printed JSON `"access_token": "…"`, YAML, a shell
 * `export`, an error that quotes the line). Each finding keeps the value itself, so the guard can say when a
 * call would carry it (egress-guard.ts). A false alarm costs a question; a miss costs the secret.
 */

export interface CredentialFinding {
  /** What it is, in the person's words ("a GitHub token"). */
  what: string;
  /** The secret value found (what must not leave). */
  value: string;
}

/** Shapes providers issue: specific enough that ordinary text rarely matches them. */
const TOKEN_SHAPES: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,8000}?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g, 'a private key'],
  [/\bsk-ant-[A-Za-z0-9_-]{20,}/g, 'an Anthropic API key'],
  [/\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g, 'an API key'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, 'an AWS access key'],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{40,}/g, 'a GitHub token'],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/g, 'a Slack token'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, 'a Google API key'],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, 'a GitLab token'],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, 'an npm token'],
  [/\b(?:sk|rk)_live_[A-Za-z0-9]{20,}\b/g, 'a Stripe key'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, 'a signed token (JWT)'],
];

/** A key name that says its value is secret: `API_KEY`, `db_password`, `access_token`, `clientSecret`, `auth`. */
const SECRET_KEY_NAME =
  /(?:secret|token|passw(?:or)?d|passwd|pwd|api[_-]?key|apikey|private[_-]?key|access[_-]?key|credential|auth(?:orization)?|session[_-]?key|signing[_-]?key|bearer|cookie)/i;

/**
 * `"key": "value"`, `'key' => 'value'`, `key = "value"`: a quoted value under a key, anywhere in a line (pretty
 * JSON, YAML, code, an error that quotes the line).
 */
const QUOTED_ASSIGNMENT = /["']?([A-Za-z_][\w.-]{0,80})["']?\s*(?:=>|:=|[=:])\s*(?:"((?:[^"\\\n]|\\.){1,4000})"|'([^'\n]{1,4000})')/g;
/**
 * `KEY=value`, `export KEY=value`, `key: value` as a line of its own, also behind the `path:line:` a search hit
 * starts with: the form of `.env` files, shell profiles and YAML. (Code such as `const token = fetchToken()` is
 * not a line of this form.)
 */
const LINE_ASSIGNMENT = /^(?:[^\s:]{1,300}:\d{1,9}:)?\s*(?:export\s+|-\s+)?([A-Za-z_][\w.-]{0,80})\s*[=:]\s*([^\s"'#]{1,4000})/gm;
/**
 * `NAME=value` in an environment's style anywhere (a command line, an error quoting an `.env` line), and `name=value`
 * just inside quotes (an error's quote of a line); not a lower-case keyword argument in code (`f(password=pw)`).
 */
const ENV_ASSIGNMENT = /(?<![\w.-])([A-Z][A-Z0-9_]{2,80})=([^\s"'#;&|)]{1,4000})|(?<=["'`])([A-Za-z_][\w.-]{2,80})=([^\s"'#;&|)]{1,4000})/g;

/** A URL with a password in it (`postgres://user:pw@host/db`, `https://user:token@host`). */
const URL_PASSWORD = /\b[a-z][a-z0-9+.-]{1,30}:\/\/([^\s:/?#@"'<>]{1,200}):([^\s/?#@"'<>]{1,400})@[^\s/?#"'<>]+/gi;

/** Values that stand for a secret rather than being one. */
const PLACEHOLDER =
  /^(?:\$\{|\$[A-Z_]|<|\{\{|%\(|your|changeme|change-me|example|placeholder|dummy|redacted|xxx|\*\*\*|\.\.\.|null|none|true|false|undefined|test|secret|password|token)/i;

/** Every credential in `text` (bounded: a credential is found in the first megabyte or not at all). */
export function credentialsIn(text: string): CredentialFinding[] {
  const sample = text.length > 1_000_000 ? text.slice(0, 1_000_000) : text;
  const found: CredentialFinding[] = [];
  for (const [shape, what] of TOKEN_SHAPES) for (const m of sample.matchAll(shape)) found.push({ what, value: m[0] });
  for (const m of sample.matchAll(URL_PASSWORD)) {
    const password = m[2]!;
    if (!PLACEHOLDER.test(password)) found.push({ what: 'a password inside a URL', value: password });
  }
  const add = (key: string, value: string, quoted: boolean): void => {
    if (SECRET_KEY_NAME.test(key) && looksLikeSecretValue(value.trim(), quoted)) found.push({ what: `a password or token (${key})`, value: value.trim() });
  };
  for (const m of sample.matchAll(QUOTED_ASSIGNMENT)) add(m[1]!, m[2] ?? m[3]!, true);
  for (const m of sample.matchAll(LINE_ASSIGNMENT)) add(m[1]!, m[2]!, false);
  for (const m of sample.matchAll(ENV_ASSIGNMENT)) add(m[1] ?? m[3]!, m[2] ?? m[4]!, false);
  return found;
}

/** A value irregular enough to be a secret: not a placeholder, a sentence, a variable or a word of code. */
function looksLikeSecretValue(value: string, quoted: boolean): boolean {
  if (value.length < 8 || /\s/.test(value) || PLACEHOLDER.test(value)) return false;
  // Unquoted `user.password`, `getToken()`, `process.env.TOKEN`: where a secret comes from, not the secret.
  if (!quoted && /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(.*\))?;?$/.test(value) && /[.(]/.test(value)) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((c) => c.test(value)).length;
  return classes >= 2 || value.length >= 20;
}
