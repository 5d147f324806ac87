/**
 * Which fields of an elicitation form look like they ask for a secret. MCP's client spec says servers
 * MUST NOT request sensitive information through form elicitation (a URL to their own page is the way),
 * yet a form asking for a password draws like any other; the front ends warn when this finds something.
 * Words, not certainty: it looks at what a person reads (the field's name, title and description, and
 * the form's message). JSON Schema's `writeOnly` would be a hint too, but the SDK's request schema drops
 * it before the host sees the form, and `format: "password"` is refused with the rest of what the spec
 * does not allow (elicitation-form.ts).
 */
import type { ElicitationForm, FormField } from './elicitation-form';

/** Phrases that name a secret, matched as whole words in lower case, with `apiKey`/`api_key` split first. */
const SECRET = new RegExp(
  [
    'pass(?:word|phrase|code|wd)s?',
    'pwd',
    'secrets?',
    // A model's tokens are counted, limited and budgeted; a secret one is not.
    'token(?! (?:count|limit|budget|usage|length|cost)s?\\b)',
    '(?:access|auth|api|bearer|refresh|session|oauth) tokens',
    'api ?keys?',
    '(?:private|secret|access|signing|ssh|license|encryption) keys?',
    'pin(?: code| number)?',
    'credit ?cards?',
    'card (?:number|no)',
    'cvv2?',
    'cvc',
    'security code',
    'iban',
    'ssn',
    'social security(?: number)?',
    'one[ -]time (?:password|code)',
    'otp',
    '2fa',
    'mfa',
    'verification code',
    '(?:seed|recovery) phrase',
    'mnemonic',
    'credentials?',
  ]
    .map((p) => `\\b${p}\\b`)
    .join('|'),
);

/** Words as a person would read them: `clientSecret`, `client_secret` and `client-secret` all read "client secret". */
function words(text: string): string {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase();
}

const SECRET_ALL = new RegExp(SECRET.source, 'g');

/** A clause that tells the person not to give something ("do not give us your PIN"). */
const NEGATION = /\b(?:do not|don't|dont|never|not|no)\b/;

/**
 * Whether a piece of text names a secret it asks for: a clause that names one after a "do not" or "never"
 * warns against it instead (server-everything's "do not give us your phone number, pin, or other sensitive info").
 */
export function namesSecret(text: string | undefined): boolean {
  if (text === undefined) return false;
  // Clauses first: words() turns a sentence's full stop into a space.
  return text
    .split(/[;!?()\n]|\.\s/)
    .map(words)
    .some((clause) => [...clause.matchAll(SECRET_ALL)].some((hit) => !NEGATION.test(clause.slice(0, hit.index))));
}

function fieldNamesSecret(f: FormField): boolean {
  return namesSecret(f.name) || namesSecret(f.title) || namesSecret(f.description);
}

/** A field a person types into (a PIN or a card number can be a number field); choices and yes/no hold no secret. */
function typed(f: FormField): boolean {
  return f.kind === 'text' || f.kind === 'number';
}

/**
 * The names of the fields that look like they ask for a secret. A field that says so itself counts; when
 * only the form's message does ("enter your password"), every field typed into without a format counts, since any of them
 * could be where it goes.
 */
export function secretFields(form: ElicitationForm, message: string): string[] {
  const own = form.fields.filter((f) => typed(f) && fieldNamesSecret(f));
  if (own.length > 0 || !namesSecret(message)) return own.map((f) => f.name);
  return form.fields.filter((f) => typed(f) && !(f.kind === 'text' && f.format !== undefined)).map((f) => f.name);
}
