import type Anthropic from '@anthropic-ai/sdk';
import { pathsIn } from '../tool-call/approval-policy';

/**
 * Signs that a secret has entered the conversation: a call that named a secret-looking file (`.env`,
 * keys, credential folders), a file the person attached from one, or text that looks like a key or a
 * password assignment in what a tool returned. Once a secret is in the model's context, anything the
 * model sends out may carry it, so the egress guard asks about every outbound call (egress-guard.ts).
 *
 * A heuristic on purpose: a false alarm costs one question, a miss costs the secret. Names are
 * matched, not contents of files the host never sees (code that opens a file by a computed name).
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

/** Text that looks like a credential. Each pattern is specific enough that ordinary code rarely matches it. */
const SECRET_TEXT: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/\bsk-ant-[A-Za-z0-9_-]{20,}/, 'an Anthropic API key'],
  [/\bsk-(proj-)?[A-Za-z0-9_-]{32,}/, 'an API key'],
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{40,}/, 'a GitHub token'],
  [/\bxox[abpr]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\bglpat-[A-Za-z0-9_-]{20}\b/, 'a GitLab token'],
  // `DB_PASSWORD=…`, `export API_TOKEN="…"`, `client_secret: …` with a value that is not a placeholder.
  [
    /^\s*(export\s+)?[\w.-]*(secret|token|passw(or)?d|passwd|api[_-]?key|private[_-]?key|access[_-]?key|credential)[\w.-]*\s*[=:]\s*["']?(?!\$\{|<|your|changeme|xxx|\*\*\*)[^\s"'#]{8,}/im,
    'a password or token',
  ],
];

/** Why the conversation holds a secret, in words for the person ("read_file read .env"). */
export type SecretSign = string;

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

/** What a piece of text looks like it holds, if it looks like a credential. */
export function secretInText(text: string): string | undefined {
  // Bounded work per result: a credential is found in the first megabyte or not at all.
  const sample = text.length > 1_000_000 ? text.slice(0, 1_000_000) : text;
  return SECRET_TEXT.find(([re]) => re.test(sample))?.[1];
}

/** Secret-looking file names inside code or a command (`open('.env')`, `cat ~/.ssh/id_rsa`). */
function secretNameIn(text: string): string | undefined {
  // Only tokens shaped like a file name: a bare word such as `credentials` is usually a variable.
  return (text.match(/[\w./~-]+/g) ?? []).find((t) => (/[./]/.test(t) || t.startsWith('id_')) && isSecretPath(t));
}

/** Arguments that hold code or a command line rather than a path. */
const CODE_KEY = /^(code|command|cmd|script|shell|sql)$/i;

/**
 * The first sign of a secret in one message, or undefined. `failed` holds the ids of calls that came
 * back as errors: a call that could not read `.env` brought no secret in.
 */
export function secretSignIn(message: Anthropic.MessageParam, failed: ReadonlySet<string>): SecretSign | undefined {
  if (typeof message.content === 'string') return message.role === 'user' ? textSign(message.content) : undefined;
  for (const block of message.content) {
    const sign = blockSign(block, failed);
    if (sign) return sign;
  }
  return undefined;
}

function blockSign(block: Anthropic.ContentBlockParam, failed: ReadonlySet<string>): SecretSign | undefined {
  if (block.type === 'tool_use' && !failed.has(block.id)) {
    const input = (block.input ?? {}) as Record<string, unknown>;
    const path = pathsIn(input).find(isSecretPath);
    if (path !== undefined) return `${block.name} read ${path}`;
    for (const [key, value] of Object.entries(input)) {
      const name = CODE_KEY.test(key) && typeof value === 'string' ? secretNameIn(value) : undefined;
      if (name) return `${block.name} ran code that names ${name}`;
    }
    return undefined;
  }
  if (block.type === 'tool_result') {
    const texts = typeof block.content === 'string' ? [block.content] : (block.content ?? []).flatMap((c) => (c.type === 'text' ? [c.text] : []));
    for (const text of texts) {
      const what = secretInText(text);
      if (what) return `a tool result holds what looks like ${what}`;
    }
    return undefined;
  }
  if (block.type === 'text') return textSign(block.text);
  return undefined;
}

/** The person's own text: an attached secret file, or a credential pasted in. */
function textSign(text: string): SecretSign | undefined {
  const attached = /^<attached_file path="([^"]*)"/.exec(text)?.[1];
  if (attached !== undefined && isSecretPath(attached)) return `you attached ${attached}`;
  const what = secretInText(text);
  return what ? `the conversation holds what looks like ${what}` : undefined;
}

/**
 * The first sign of a secret anywhere in a conversation. Each message is read once (messages are
 * never changed in place; compaction replaces them), so asking before every call stays cheap.
 */
export class SecretWatch {
  private readonly seen = new WeakMap<object, SecretSign | null>();

  signIn(conversation: readonly Anthropic.MessageParam[]): SecretSign | undefined {
    const failed = new Set<string>();
    for (const m of conversation) {
      if (typeof m.content === 'string' || m.role !== 'user') continue;
      for (const b of m.content) if (b.type === 'tool_result' && b.is_error) failed.add(b.tool_use_id);
    }
    for (const message of conversation) {
      let sign = this.seen.get(message);
      if (sign === undefined) {
        sign = secretSignIn(message, failed) ?? null;
        // A call whose result has not arrived yet may still fail: decide about it once it has.
        if (!(message.role === 'assistant' && sign !== null && !resultsIn(conversation, message))) this.seen.set(message, sign);
      }
      if (sign) return sign;
    }
    return undefined;
  }
}

/** Whether every call of an assistant message has its result in the conversation. */
function resultsIn(conversation: readonly Anthropic.MessageParam[], message: Anthropic.MessageParam): boolean {
  if (typeof message.content === 'string') return true;
  const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
  const answered = new Set(
    conversation.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])))),
  );
  return ids.every((id) => answered.has(id));
}
