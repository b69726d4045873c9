import { z } from 'zod';
import { SETTINGS, type SettingDef } from '../src/config/settings';

/** The page holding the settings table, linked from the README. */
export const SETTINGS_PAGE = 'docs/settings.md';

/** The settings table lives between these two lines of SETTINGS_PAGE, written by `npm run settings:docs`. */
export const TABLE_START = '<!-- settings:start (generated from src/config/settings.ts by `npm run settings:docs`; do not edit) -->';
export const TABLE_END = '<!-- settings:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function defaultOf(def: SettingDef): string {
  if (def.schema instanceof z.ZodDefault) {
    const value: unknown = def.schema.def.defaultValue;
    if (Array.isArray(value)) return value.length ? `\`${value.join(',')}\`` : 'none';
    return typeof value === 'string' ? `\`${value}\`` : String(value);
  }
  return def.unset ?? '—';
}

/** One row per declared setting, in declaration order. */
export function renderSettingsTable(): string {
  const rows = Object.entries(SETTINGS).map(([name, d]) => {
    const def = d as SettingDef;
    const names = [`\`${name}\``, ...(def.aliases ?? []).map((a) => `(or \`${a}\`)`)].join(' ');
    const meaning = def.secret ? `Secret. ${def.description}` : def.description;
    return `| ${names} | ${cell(defaultOf(def))} | ${cell(meaning)} |`;
  });
  return ['| Setting | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `page` with the text between the markers replaced by the current table. */
export function withSettingsTable(page: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${SETTINGS_PAGE} lacks the settings table markers (${TABLE_START} … ${TABLE_END})`);
  return `${page.slice(0, start + TABLE_START.length)}\n${renderSettingsTable()}\n${page.slice(end)}`;
}
