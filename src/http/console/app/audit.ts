// The audit log: every operator action, newest first, a page at a time.
import type { Answer, Section } from './api';
import { button, code, errorBox, h, json, none, show, table, wallet, when } from './ui';

type Entry = Answer<'/api/admin/audit', 'get'>['items'][number];

/** A state before or after an action: null when the target did not exist (or no longer does). */
const state = (value: unknown, summary: string) => (value === null || value === undefined ? none() : json(value, summary));

export default {
  id: 'audit',
  title: 'Audit log',
  async render(view, call) {
    const pages = h('div', {});
    const more = h('div', { class: 'actions' });
    let rows: Entry[] = [];

    const load = async (cursor: string | undefined) => {
      const page = await call((api) => api.GET('/api/admin/audit', { params: { query: { cursor } } }));
      rows = cursor ? [...rows, ...page.items] : page.items;
      show(
        pages,
        table({
          caption: 'Operator actions, newest first',
          rows,
          columns: [
            ['When', (e) => when(e.at)],
            ['Operator', (e) => (e.actor === 'operator-token' ? 'operator-token (automation)' : wallet(e.actor))],
            ['Action', (e) => code(e.action)],
            ['Target', (e) => h('code', { class: 'address' }, e.target)],
            ['Before', (e) => state(e.before, 'before')],
            ['After', (e) => state(e.after, 'after')],
            ['Request', (e) => e.requestId],
          ],
          empty: 'no operator action yet.',
        }),
      );
      const next = page.nextCursor;
      show(more, next ? button('Older entries', () => load(next).catch((error: unknown) => show(more, errorBox(error)))) : null);
    };
    const reload = () => load(undefined).catch((error: unknown) => show(pages, errorBox(error)));

    show(view, h('div', { class: 'actions' }, button('Refresh', reload)), pages, more);
    await reload();
  },
} satisfies Section;
