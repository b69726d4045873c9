// Small DOM helpers. Text always goes in as text (never as HTML): chat messages, reasons and
// wallet names come from other people.
import { ApiError } from './api';

/** What an element may contain: nodes, text, nested lists; null, undefined and false are skipped. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];
type AttrValue = string | number | boolean | null | undefined | ((event: Event) => unknown);
export type Attrs = Record<string, AttrValue>;

/**
 * An element: `h('button', { type: 'button', onclick }, 'Save')`. Attributes starting with `on`
 * are listeners; `false`/`null`/`undefined` attributes are left out. `value` and `checked` are set
 * as properties too (after the children: a select's value needs its options), and as the
 * default, so a form's reset() keeps them.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined || name === 'value' || name === 'checked') continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  const { value, checked } = attrs;
  if (value !== undefined && value !== null) {
    const text = String(value);
    if (el instanceof HTMLSelectElement) {
      el.value = text;
      el.querySelector(`option[value="${CSS.escape(text)}"]`)?.setAttribute('selected', '');
    } else if (el instanceof HTMLTextAreaElement) {
      el.value = text;
      el.textContent = text;
    } else if (el instanceof HTMLInputElement) {
      el.value = text;
      el.setAttribute('value', text);
    }
  }
  if (checked !== undefined && el instanceof HTMLInputElement) {
    el.checked = Boolean(checked);
    if (checked) el.setAttribute('checked', '');
  }
  return el;
}

function append(el: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's content. */
export function show(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

let ids = 0;
/** A unique element id (labels name their inputs). */
export const uid = (prefix: string): string => `${prefix}-${++ids}`;

/** A select's options: values, or [value, label] pairs. */
export const options = (values: readonly (string | readonly [string, string])[]): HTMLOptionElement[] =>
  values.map((o) => (typeof o === 'string' ? h('option', { value: o }, o) : h('option', { value: o[0] }, o[1])));

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
const isControl = (el: Element): el is Control => el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

/**
 * A labelled control: `field('Wallet address', h('input', { name: 'wallet', required: true }))`,
 * with a description under it when `hint` is given.
 */
export function field(label: string, control: Control, hint?: string): HTMLDivElement {
  const id = uid(control.name || 'field');
  control.id = id;
  const hintEl = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  const labelEl = h('label', { for: id }, label);
  if (control instanceof HTMLInputElement && control.type === 'checkbox') return h('div', { class: 'field checkbox' }, control, labelEl, hintEl);
  return h('div', { class: 'field' }, labelEl, control, hintEl);
}

/** A group of checkboxes, read as the array of the checked values (Values.all). */
export function checkboxes(legend: string, name: string, values: readonly string[], checked: readonly string[]): HTMLFieldSetElement {
  return h(
    'fieldset',
    { class: 'field group' },
    h('legend', {}, legend),
    values.map((value) => {
      const id = uid(name);
      return h('span', { class: 'checkbox' }, h('input', { type: 'checkbox', id, name, value, checked: checked.includes(value) }), h('label', { for: id }, value));
    }),
  );
}

/** A form's values by control name, read as the API takes them. */
export class Values {
  private readonly controls: Control[];
  constructor(form: HTMLFormElement) {
    this.controls = [...form.elements].filter(isControl);
  }
  private named(name: string): Control[] {
    return this.controls.filter((el) => el.name === name);
  }
  /** The trimmed text; empty: undefined. */
  text(name: string): string | undefined {
    const value = this.named(name)[0]?.value.trim();
    return value ? value : undefined;
  }
  /** The text of a control the form requires (its validation ran first). */
  required(name: string): string {
    const value = this.text(name);
    if (value === undefined) throw new Error(`${name} is required.`);
    return value;
  }
  checked(name: string): boolean {
    const [el] = this.named(name);
    return el instanceof HTMLInputElement && el.checked;
  }
  /** The checked values of a checkbox group, each one of `allowed` (the server's enum). */
  all<T extends string>(name: string, allowed: readonly T[]): T[] {
    return this.named(name)
      .filter((el) => el instanceof HTMLInputElement && el.checked)
      .map((el) => oneOf(allowed, el.value));
  }
  /** A select's value, one of `allowed` (the server's enum). */
  one<T extends string>(name: string, allowed: readonly T[]): T {
    return oneOf(allowed, this.required(name));
  }
}

/** `value` as one of the server's `allowed` values. */
function oneOf<T extends string>(allowed: readonly T[], value: string): T {
  const found = allowed.find((v) => v === value);
  if (found === undefined) throw new Error(`${value} is not one of ${allowed.join(', ')}.`);
  return found;
}

/**
 * A form whose submit runs `onSubmit(values, form)` with the button disabled meanwhile; a thrown
 * error shows in the form's alert, a returned string in its status line.
 */
export function form(spec: { label: string; submit: string; fields: Child[]; onSubmit: (values: Values, form: HTMLFormElement) => Promise<string | void> }): HTMLFormElement {
  const status = h('p', { class: 'status', role: 'status' });
  const alert = h('div', { class: 'alert-slot' });
  const button = h('button', { type: 'submit' }, spec.submit);
  const onsubmit = async (event: Event) => {
    event.preventDefault();
    show(status);
    show(alert);
    const invalid = [...el.elements].filter(isControl).find((c) => !c.validity.valid);
    if (invalid) {
      show(alert, errorBox(new Error(`${labelOf(invalid)}: ${invalid.validationMessage}`)));
      invalid.focus();
      return;
    }
    button.setAttribute('disabled', '');
    try {
      const done = await spec.onSubmit(new Values(el), el);
      if (done) show(status, done);
    } catch (error) {
      show(alert, errorBox(error));
    } finally {
      button.removeAttribute('disabled');
    }
  };
  const el = h('form', { 'aria-label': spec.label, novalidate: true, onsubmit }, spec.fields, h('div', { class: 'actions' }, button), alert, status);
  return el;
}

function labelOf(control: Element): string {
  const label = control.id ? control.ownerDocument.querySelector(`label[for="${control.id}"]`) : null;
  return label?.textContent ?? control.getAttribute('name') ?? 'This field';
}

/**
 * An error as the page shows it: the server's `error.message` (its code beside it) and, for
 * VALIDATION_FAILED, each field's problem.
 */
export function errorBox(error: unknown): HTMLDivElement {
  const api = error instanceof ApiError ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', {}, api ? h('strong', {}, `${api.code}: `) : null, message),
    // The router's own 404: the route is not on this server (yet).
    api?.status === 404 && /^No route for /.test(message) && h('p', {}, 'This server does not offer this yet.'),
    api && api.issues.length > 0 && h('ul', {}, api.issues.map((i) => h('li', {}, `${i.path ? `${i.path}: ` : ''}${i.message}`))),
  );
}

/** A table column: its heading and what a row shows in it (a node as it is, any other value through cell()). */
export type Column<R> = [label: string, show: (row: R) => unknown];

/** A table of rows, with a cell of actions per row when `actions` is given. */
export function table<R>(spec: { caption: string; rows: readonly R[]; columns: Column<R>[]; actions?: (row: R) => Child; empty: string }): HTMLElement {
  const { caption, rows, columns, actions, empty } = spec;
  if (rows.length === 0) return h('p', { class: 'empty' }, `${caption}: ${empty}`);
  const shown = (value: unknown) => (value instanceof Node ? value : cell(value));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, columns.map(([label]) => h('th', { scope: 'col' }, label)), actions && h('th', { scope: 'col' }, 'Actions'))),
      h('tbody', {}, rows.map((row) => h('tr', {}, columns.map(([, get]) => h('td', {}, shown(get(row)))), actions && h('td', { class: 'row-actions' }, actions(row))))),
    ),
  );
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A time as `2026-01-02 03:04:05 UTC` (the machine-readable one in `datetime`). */
export function when(value: unknown): Node | string {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return cell(value);
  const iso = new Date(value).toISOString();
  return h('time', { datetime: iso }, `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`);
}

/** A value in a cell: objects as JSON behind a disclosure, times in UTC, nothing as a dash. */
export function cell(value: unknown): Node | string {
  if (value === null || value === undefined) return none();
  if (typeof value === 'object') return json(value);
  if (typeof value === 'string' && ISO_TIME.test(value)) return when(value);
  return String(value);
}

export const none = (text = '—'): HTMLSpanElement => h('span', { class: 'none' }, text);

/** JSON behind a disclosure. */
export function json(value: unknown, summary = 'JSON'): HTMLDetailsElement {
  return h('details', {}, h('summary', {}, summary), h('pre', {}, JSON.stringify(value, null, 2)));
}

/** A button: `button('Revoke', () => …)`; disabled while its promise runs. */
export function button(label: string, onClick: () => unknown, attrs: Attrs = {}): HTMLButtonElement {
  const onclick = async () => {
    el.setAttribute('disabled', '');
    try {
      await onClick();
    } finally {
      if (el.isConnected) el.removeAttribute('disabled');
    }
  };
  const el = h('button', { type: 'button', ...attrs, onclick }, label);
  return el;
}

/** `2026-01-02T03:04` from a datetime-local input, read as UTC. */
export const utcInput = (value: string | undefined): string | undefined => (value ? new Date(`${value}Z`).toISOString() : undefined);

/** The value a datetime-local input shows for an ISO time, in UTC. */
export const toUtcInput = (iso: string | null | undefined): string | undefined => (iso ? new Date(iso).toISOString().slice(0, 16) : undefined);

/** A wallet address in full (operators copy it). */
export const wallet = (address: string | null | undefined): HTMLElement => (address ? h('code', { class: 'address' }, address) : none());

/** A code span: keys, slugs, kinds. */
export const code = (text: string): HTMLElement => h('code', {}, text);
