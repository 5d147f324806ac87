/**
 * One elicitation field as a labelled control with its error line: text (email, URL, date, date-time),
 * number, yes/no, one choice, several choices. Defaults are filled in; `read` gives the value typed
 * (undefined when left empty, so the host applies the default) and `check` shows why it does not fit.
 */
import { checkValue, type FieldValue, type FormField } from '../../src/common/form-field';
import { h } from './dom';

export interface FieldControl {
  readonly field: FormField;
  readonly el: HTMLElement;
  /** Where the keyboard goes when this field is the first one wrong. */
  readonly focusTarget: HTMLElement;
  read(): { value: FieldValue | undefined } | { error: string };
  /** Shows (or clears) the error next to the field; returns whether it is fine. */
  check(): boolean;
}

const PLACEHOLDER: Record<string, string> = { email: 'name@example.com', uri: 'https://…', 'date-time': '2026-11-23T13:30:00Z' };

export function fieldControl(field: FormField, idPrefix: string): FieldControl {
  const id = `${idPrefix}-${field.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const errorId = `${id}-error`;
  const descId = `${id}-desc`;
  const error = h('div', { class: 'ask-field-error', attrs: { id: errorId } });
  error.hidden = true;
  const desc = field.description ? h('div', { class: 'ask-field-desc', text: field.description, attrs: { id: descId } }) : null;
  const described = [desc ? descId : '', errorId].filter(Boolean).join(' ');
  const required = field.required ? h('span', { class: 'ask-required', text: ' (required)' }) : null;

  let focusTarget: HTMLElement;
  let raw: () => FieldValue | undefined | { error: string };
  let body: HTMLElement;
  if (field.kind === 'multiselect') {
    const boxes = field.choices.map((c, i) => {
      const box = h('input', { attrs: { type: 'checkbox', id: `${id}-${i}`, value: c.value } });
      box.checked = field.default?.includes(c.value) ?? false;
      return { box, row: h('label', { class: 'ask-choice', attrs: { for: `${id}-${i}` } }, box, h('span', { text: c.title })) };
    });
    focusTarget = boxes[0]?.box ?? error;
    raw = () => boxes.filter((b) => b.box.checked).map((b) => b.box.value);
    body = h(
      'fieldset',
      { class: 'ask-field', attrs: { 'data-field': field.name, 'aria-describedby': described } },
      h('legend', { class: 'ask-field-label' }, field.title, required),
      desc,
      h('div', { class: 'ask-choices' }, ...boxes.map((b) => b.row)),
      error,
    );
  } else {
    const control = inputFor(field, id);
    control.setAttribute('aria-describedby', described);
    if (field.required) control.setAttribute('aria-required', 'true');
    focusTarget = control;
    raw = () => valueOf(field, control);
    const label = h('label', { class: 'ask-field-label', attrs: { for: id } }, field.title, required);
    body =
      field.kind === 'boolean'
        ? h(
            'div',
            { class: 'ask-field ask-field-boolean', attrs: { 'data-field': field.name } },
            h('div', { class: 'ask-check-row' }, control, label),
            desc,
            error,
          )
        : h('div', { class: 'ask-field', attrs: { 'data-field': field.name } }, label, desc, control, error);
  }

  const read = (): { value: FieldValue | undefined } | { error: string } => {
    const v = raw();
    if (v !== undefined && typeof v === 'object' && !Array.isArray(v)) return v;
    // Left empty: the host sends the default (applyDefaults); a required field without one must be filled.
    if (v === undefined || (Array.isArray(v) && v.length === 0)) {
      const mustFill = field.required && (field.default === undefined || field.kind === 'multiselect');
      return mustFill ? { error: field.kind === 'multiselect' ? 'pick at least one' : 'required' } : { value: undefined };
    }
    const problem = checkValue(field, v);
    return problem ? { error: problem } : { value: v };
  };
  const show = (message: string | undefined): void => {
    error.hidden = !message;
    error.textContent = message ? `${field.title}: ${message}` : '';
    const invalid = message ? 'true' : 'false';
    (field.kind === 'multiselect' ? body : focusTarget).setAttribute('aria-invalid', invalid);
  };
  const check = (): boolean => {
    const r = read();
    show('error' in r ? r.error : undefined);
    return !('error' in r);
  };
  // Once shown, an error goes away as soon as the field is fixed.
  body.addEventListener('input', () => !error.hidden && check());
  body.addEventListener('change', () => !error.hidden && check());
  return { field, el: body, focusTarget, read, check };
}

function inputFor(field: Exclude<FormField, { kind: 'multiselect' }>, id: string): HTMLInputElement | HTMLSelectElement {
  switch (field.kind) {
    case 'text': {
      const type = field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text';
      const input = h('input', { class: 'ask-input', attrs: { type, id, name: field.name, autocomplete: 'off', spellcheck: 'false' } });
      if (field.format && PLACEHOLDER[field.format]) input.placeholder = PLACEHOLDER[field.format]!;
      if (field.default !== undefined) input.value = field.default;
      return input;
    }
    case 'number': {
      const input = h('input', { class: 'ask-input', attrs: { type: 'number', id, name: field.name, step: field.integer ? '1' : 'any' } });
      if (field.minimum !== undefined) input.min = String(field.minimum);
      if (field.maximum !== undefined) input.max = String(field.maximum);
      if (field.default !== undefined) input.value = String(field.default);
      return input;
    }
    case 'boolean': {
      const input = h('input', { attrs: { type: 'checkbox', id, name: field.name } });
      input.checked = field.default ?? false;
      return input;
    }
    case 'select': {
      const select = h('select', { class: 'ask-input', attrs: { id, name: field.name } });
      // No preselected choice unless the schema gives one: the person must pick, not accept the first.
      if (field.default === undefined) select.append(h('option', { text: field.required ? 'Choose…' : '(none)', attrs: { value: '' } }));
      for (const c of field.choices) select.append(h('option', { text: c.title, attrs: { value: c.value } }));
      select.value = field.default ?? '';
      return select;
    }
  }
}

function valueOf(
  field: Exclude<FormField, { kind: 'multiselect' }>,
  control: HTMLInputElement | HTMLSelectElement,
): FieldValue | undefined | { error: string } {
  if (field.kind === 'boolean') return (control as HTMLInputElement).checked;
  if (field.kind === 'number') {
    const input = control as HTMLInputElement;
    // A number input reads empty both when empty and when what was typed is no number.
    if (input.value === '') return input.validity.badInput ? { error: 'expected a number' } : undefined;
    return Number(input.value);
  }
  if (control.value === '') return undefined;
  return control.value;
}
