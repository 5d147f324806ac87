/**
 * A config string with every variable resolved, but with what came from the person's side kept apart
 * from what the file wrote: `${input:id}` stays a part of its own until the person has answered it, and
 * a variable taken from their environment or home (`${env:NAME}`, `${userHome}`, Claude's `${NAME}`)
 * keeps the reference it was written as beside its value. Keeping them apart (rather than re-scanning a
 * string later) means an environment value or an envFile line that happens to contain `${input:x}` is
 * never expanded a second time, and what is shown before consent (preview) names where a value comes
 * from without ever showing the value.
 */
export type TemplatePart = string | { input: string } | PersonVariable;
export type Template = TemplatePart[];

/** A value from the person's side: `variable` is the reference as written (`${env:GITHUB_TOKEN}`), `value` what it stood for. */
interface PersonVariable {
  variable: string;
  value: string;
}

export function literal(text: string): Template {
  return [text];
}

/** The input ids a template needs, in order of first use. */
export function inputsOf(template: Template): string[] {
  return template.flatMap((p) => (typeof p === 'string' || !('input' in p) ? [] : [p.input]));
}

/** True when any of the template's text comes from the person's environment, home or inputs rather than from the file. */
export function takesFromPerson(template: Template): boolean {
  return template.some((p) => typeof p !== 'string');
}

/** The string a template stands for, given each input's value. */
export function render(template: Template, value: (input: string) => string): string {
  return template.map((p) => (typeof p === 'string' ? p : 'input' in p ? value(p.input) : p.value)).join('');
}

/** The string a template stands for while it needs no input (a path, a URL to check); undefined when it does. */
export function renderWithoutInputs(template: Template): string | undefined {
  return inputsOf(template).length > 0 ? undefined : render(template, () => '');
}

/**
 * The string as it can be shown before consent: each input and each value from the person's side as
 * the reference it was written as (`${input:id}`, `${env:NAME}`), never the value.
 */
export function preview(template: Template): string {
  return template.map((p) => (typeof p === 'string' ? p : 'input' in p ? `\${input:${p.input}}` : p.variable)).join('');
}
