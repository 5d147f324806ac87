/**
 * A config string with every variable resolved except `${input:id}` references, which stay parts of
 * their own until the person has answered them. Keeping them apart (rather than re-scanning a string
 * later) means an environment value or an envFile line that happens to contain `${input:x}` is never
 * expanded a second time.
 */
export type TemplatePart = string | { input: string };
export type Template = TemplatePart[];

export function literal(text: string): Template {
  return [text];
}

/** The input ids a template needs, in order of first use. */
export function inputsOf(template: Template): string[] {
  return template.flatMap((p) => (typeof p === 'string' ? [] : [p.input]));
}

/** The string a template stands for, given each input's value. */
export function render(template: Template, value: (input: string) => string): string {
  return template.map((p) => (typeof p === 'string' ? p : value(p.input))).join('');
}

/** The string as it can be shown before any input was answered: `${input:id}` where each goes. */
export function preview(template: Template): string {
  return render(template, (id) => `\${input:${id}}`);
}
