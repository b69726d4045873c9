// A form over an operator request body, read from the OpenAPI document (src/generated/openapi-forms.ts):
// one control per field of the body, its kind (text, long text, time, switch, number) from the field's
// schema, so a field the API gains shows up here without a change to the console.
import { FORM_FIELDS, type FormField } from '../../../generated/openapi-forms';
import { field, h, toUtcInput, utcInput, type Values } from './ui';

/** The fields of one request body (`'POST /api/admin/campaigns'`). */
export function bodyOf(operation: string): readonly FormField[] {
  const fields = FORM_FIELDS[operation];
  if (!fields) throw new Error(`the API document has no body for ${operation}`);
  return fields;
}

/** How a field is presented where its name does not say enough. */
export interface Presentation {
  label?: string;
  hint?: string;
}

/** A label from a field's name: `copyText` → `Copy text`. */
const labelOf = (name: string): string => {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A JSON schema regex as an HTML `pattern` (anchored already; a dash closing a class escaped, as the `v` flag requires). */
const htmlPattern = (pattern: string): string => pattern.replace(/^\^/, '').replace(/\$$/, '').replace(/-\]/g, '\\-]');

const textOf = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

function control(f: FormField, value: unknown) {
  const { name } = f;
  switch (f.kind) {
    case 'boolean':
      return h('input', { name, type: 'checkbox', checked: typeof value === 'boolean' ? value : f.default === true });
    case 'dateTime':
      return h('input', { name, type: 'datetime-local', required: f.required, value: toUtcInput(typeof value === 'string' ? value : null) });
    case 'integer':
      return h('input', { name, type: 'number', step: 1, required: f.required, value: textOf(value) });
    case 'longText':
      return h('textarea', { name, rows: 2, maxlength: f.maxLength, value: textOf(value) });
    case 'text':
      return h('input', { name, required: f.required && !f.nullable, pattern: f.pattern ? htmlPattern(f.pattern) : undefined, maxlength: f.maxLength, value: textOf(value) });
    default:
      return null;
  }
}

/** The body's fields as labelled controls, filled from `row` (an edit) or empty (a new one). */
export function bodyFields(fields: readonly FormField[], row?: Record<string, unknown>, presented: Record<string, Presentation> = {}) {
  return fields.flatMap((f) => {
    const el = control(f, row?.[f.name]);
    const { label = labelOf(f.name), hint } = presented[f.name] ?? {};
    return el ? [field(label, el, hint)] : [];
  });
}

/** One field's value as the API takes it: empty text null where the field takes null (left out where it may be absent), times in UTC. */
function valueOf(f: FormField, v: Values): unknown {
  switch (f.kind) {
    case 'boolean':
      return v.checked(f.name);
    case 'dateTime':
      return f.required ? utcInput(v.required(f.name)) : (utcInput(v.text(f.name)) ?? (f.nullable ? null : undefined));
    case 'integer': {
      const text = f.required ? v.required(f.name) : v.text(f.name);
      return text === undefined ? (f.nullable ? null : undefined) : Number(text);
    }
    default:
      return f.required && !f.nullable ? v.required(f.name) : (v.text(f.name) ?? (f.nullable ? null : undefined));
  }
}

/** The body a form's values make (the fields with a control only). */
export function bodyValues(fields: readonly FormField[], v: Values): Record<string, unknown> {
  return Object.fromEntries(
    fields
      .filter((f) => f.kind !== 'other')
      .flatMap((f) => {
        const value = valueOf(f, v);
        return value === undefined ? [] : [[f.name, value]];
      }),
  );
}
