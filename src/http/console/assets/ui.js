// Small DOM helpers. Text always goes in as text (never as HTML): chat messages, reasons and
// wallet names come from other people.

/**
 * An element: `h('button', { type: 'button', onclick }, 'Save')`. Attributes starting with `on`
 * are listeners; `false`/`null`/`undefined` attributes are left out; children may be nested
 * arrays, strings or nodes (null and false are skipped).
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...unknown} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined || name === 'value' || name === 'checked') continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  // Properties, after the children: a select's value needs its options. The default too, so a form's reset() keeps it.
  if (attrs.value !== undefined && attrs.value !== null) {
    /** @type {HTMLInputElement} */ (el).value = String(attrs.value);
    if (tag === 'input') el.setAttribute('value', String(attrs.value));
    else if (tag === 'textarea') el.textContent = String(attrs.value);
    else if (tag === 'select') el.querySelector(`option[value="${CSS.escape(String(attrs.value))}"]`)?.setAttribute('selected', '');
  }
  if (attrs.checked !== undefined) {
    /** @type {HTMLInputElement} */ (el).checked = Boolean(attrs.checked);
    if (attrs.checked) el.setAttribute('checked', '');
  }
  return el;
}

/** @param {Element} el @param {unknown[]} children */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's content. @param {Element} el @param {...unknown} children */
export function show(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

let ids = 0;
/** A unique element id (labels name their inputs). @param {string} prefix */
export const uid = (prefix) => `${prefix}-${++ids}`;

/**
 * A labelled input: `field('Wallet address', { name: 'wallet', required: true })`.
 * @param {string} label
 * @param {Record<string, unknown>} attrs input attributes; `as: 'textarea' | 'select'`, `options` for a select, `hint` for a description
 */
export function field(label, attrs) {
  const { as = 'input', options, hint, ...rest } = /** @type {Record<string, any>} */ (attrs);
  const id = uid(String(rest.name ?? 'field'));
  const hintId = hint ? `${id}-hint` : undefined;
  const control =
    as === 'select'
      ? h('select', { id, ...rest, 'aria-describedby': hintId }, (options ?? []).map((/** @type {string | [string, string]} */ o) => (Array.isArray(o) ? h('option', { value: o[0] }, o[1]) : h('option', { value: o }, o))))
      : h(as, { id, ...(as === 'input' && !rest.type ? { type: 'text' } : {}), ...rest, 'aria-describedby': hintId });
  if (rest.type === 'checkbox') return h('div', { class: 'field checkbox' }, control, h('label', { for: id }, label), hint && h('p', { class: 'hint', id: hintId }, hint));
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint && h('p', { class: 'hint', id: hintId }, hint));
}

/**
 * A group of checkboxes read as the array of the checked values (valuesOf).
 * @param {string} legend
 * @param {string} name
 * @param {string[]} options
 * @param {string[]} checked
 */
export function checkboxes(legend, name, options, checked) {
  return h(
    'fieldset',
    { class: 'field group' },
    h('legend', {}, legend),
    options.map((option) => {
      const id = uid(name);
      return h('span', { class: 'checkbox' }, h('input', { type: 'checkbox', id, name, value: option, 'data-group': '', checked: checked.includes(option) }), h('label', { for: id }, option));
    }),
  );
}

/**
 * A form whose submit runs `onSubmit(values, form)` with the button disabled meanwhile; a thrown
 * error shows in the form's alert, a returned string in its status line.
 * @param {{ label: string, submit: string, fields: unknown[], onSubmit: (values: Record<string, any>, form: HTMLFormElement) => Promise<string | void> }} spec
 */
export function form({ label, submit, fields, onSubmit }) {
  const status = h('p', { class: 'status', role: 'status' });
  const alert = h('div', { class: 'alert-slot' });
  const button = h('button', { type: 'submit' }, submit);
  const el = /** @type {HTMLFormElement} */ (
    h(
      'form',
      {
        'aria-label': label,
        novalidate: true,
        onsubmit: async (/** @type {SubmitEvent} */ event) => {
          event.preventDefault();
          show(status);
          show(alert);
          if (!el.checkValidity()) {
            const invalid = /** @type {HTMLInputElement} */ (el.querySelector(':invalid'));
            show(alert, errorBox({ message: `${labelOf(invalid)}: ${invalid.validationMessage}` }));
            invalid.focus();
            return;
          }
          button.setAttribute('disabled', '');
          try {
            const done = await onSubmit(valuesOf(el), el);
            if (done) show(status, done);
          } catch (error) {
            show(alert, errorBox(error));
          } finally {
            button.removeAttribute('disabled');
          }
        },
      },
      fields,
      h('div', { class: 'actions' }, button),
      alert,
      status,
    )
  );
  return el;
}

/** @param {Element} control */
function labelOf(control) {
  const label = control.id ? control.ownerDocument.querySelector(`label[for="${control.id}"]`) : null;
  return label?.textContent ?? control.getAttribute('name') ?? 'This field';
}

/**
 * A form's values by name: checkboxes as booleans, `type=number` as numbers (empty: undefined),
 * empty text as undefined.
 * @param {HTMLFormElement} formEl
 * @returns {Record<string, any>}
 */
export function valuesOf(formEl) {
  /** @type {Record<string, any>} */
  const values = {};
  for (const el of /** @type {Iterable<HTMLInputElement>} */ (formEl.elements)) {
    if (!el.name) continue;
    if (el.type === 'checkbox' && el.dataset.group !== undefined) {
      values[el.name] ??= [];
      if (el.checked) values[el.name].push(el.value);
    } else if (el.type === 'checkbox') values[el.name] = el.checked;
    else if (el.value.trim() === '') values[el.name] = undefined;
    else if (el.type === 'number') values[el.name] = Number(el.value);
    else values[el.name] = el.value.trim();
  }
  return values;
}

/**
 * An error as the page shows it: the server's `error.message` (its code beside it) and, for
 * VALIDATION_FAILED, each field's problem.
 * @param {any} error an ApiError (./api.js) or any Error
 */
export function errorBox(error) {
  const issues = Array.isArray(error?.details?.issues) ? error.details.issues : [];
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('p', {}, error?.code ? h('strong', {}, `${error.code}: `) : null, error?.message ?? String(error)),
    // The router's own 404: the route is not on this server (yet).
    error?.status === 404 && /^No route for /.test(error?.message ?? '') && h('p', {}, 'This server does not offer this yet.'),
    issues.length > 0 && h('ul', {}, issues.map((/** @type {{ path?: unknown, message?: string }} */ i) => h('li', {}, `${pathText(i.path)}${i.message ?? ''}`))),
  );
}

/** @param {unknown} path */
const pathText = (path) => {
  const text = Array.isArray(path) ? path.join('.') : typeof path === 'string' ? path.replace(/^\//, '').replaceAll('/', '.') : '';
  return text ? `${text}: ` : '';
};

/**
 * A table of rows. Without `columns`, every key of the rows is a column (answers whose shape the
 * page does not know yet still show).
 * @param {{ caption: string, rows: any[], columns?: Array<{ key: string, label?: string, format?: (value: any, row: any) => unknown }>, actions?: (row: any) => unknown, empty?: string }} spec
 */
export function table({ caption, rows, columns, actions, empty = 'Nothing yet.' }) {
  if (rows.length === 0) return h('p', { class: 'empty' }, `${caption}: ${empty}`);
  /** @type {Array<{ key: string, label?: string, format?: (value: any, row: any) => unknown }>} */
  const cols = columns ?? [...new Set(rows.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])))].map((key) => ({ key }));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col' }, c.label ?? c.key)), actions && h('th', { scope: 'col' }, 'Actions'))),
      h(
        'tbody',
        {},
        rows.map((row) => h('tr', {}, cols.map((c) => h('td', {}, c.format ? c.format(row?.[c.key], row) : cell(row?.[c.key]))), actions && h('td', { class: 'row-actions' }, actions(row)))),
      ),
    ),
  );
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A time as `2026-01-02 03:04:05 UTC` (the machine-readable one in `datetime`). @param {unknown} value @returns {Node | string} */
export function when(value) {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return cell(value);
  const iso = new Date(value).toISOString();
  return h('time', { datetime: iso }, `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`);
}

/** A value in a cell: objects as JSON behind a disclosure, times in UTC. @param {unknown} value @returns {Node | string} */
export function cell(value) {
  if (value === null || value === undefined) return h('span', { class: 'none' }, '—');
  if (typeof value === 'object') return json(value);
  if (typeof value === 'string' && ISO_TIME.test(value)) return when(value);
  return String(value);
}

/** JSON behind a disclosure. @param {unknown} value @param {string} [summary] */
export function json(value, summary = 'JSON') {
  return h('details', {}, h('summary', {}, summary), h('pre', {}, JSON.stringify(value, null, 2)));
}

/**
 * The array an answer lists: the answer itself, the first of `names` present, or its only array.
 * @param {any} body
 * @param {...string} names
 * @returns {any[]}
 */
export function listOf(body, ...names) {
  if (Array.isArray(body)) return body;
  for (const name of names) if (Array.isArray(body?.[name])) return body[name];
  const arrays = body && typeof body === 'object' ? Object.values(body).filter(Array.isArray) : [];
  return arrays.length === 1 ? arrays[0] : [];
}

/** A button: `button('Revoke', () => …)`; disabled while its promise runs. @param {string} label @param {() => unknown} onClick @param {Record<string, unknown>} [attrs] */
export function button(label, onClick, attrs = {}) {
  const el = h('button', {
    type: 'button',
    ...attrs,
    onclick: async () => {
      el.setAttribute('disabled', '');
      try {
        await onClick();
      } finally {
        if (el.isConnected) el.removeAttribute('disabled');
      }
    },
  }, label);
  return el;
}

/** `2026-01-02T03:04` from a datetime-local input, read as UTC. @param {string | undefined} value */
export const utcInput = (value) => (value ? new Date(`${value}Z`).toISOString() : undefined);

/** The value a datetime-local input shows for an ISO time, in UTC. @param {string | null | undefined} iso */
export const toUtcInput = (iso) => (iso ? new Date(iso).toISOString().slice(0, 16) : undefined);

/** A wallet address in full (operators copy it). @param {unknown} address */
export const wallet = (address) => (address ? h('code', { class: 'address' }, String(address)) : h('span', { class: 'none' }, '—'));
