// The audit log: every operator action, newest first, a page at a time.
import { button, errorBox, h, json, show, table, wallet, when } from './ui.js';

/** @type {import('./main.js').Section} */
export default {
  id: 'audit',
  title: 'Audit log',
  async render(view, { request }) {
    const pages = h('div', {});
    const more = h('div', { class: 'actions' });
    /** @type {any[]} */
    let rows = [];

    /** @param {string | undefined} cursor */
    const load = async (cursor) => {
      const page = await request('GET', 'admin/audit', { query: { cursor } });
      rows = cursor ? [...rows, ...page.items] : page.items;
      show(
        pages,
        table({
          caption: 'Operator actions, newest first',
          rows,
          columns: [
            { key: 'at', label: 'When', format: when },
            { key: 'actor', label: 'Operator', format: (a) => (a === 'operator-token' ? 'operator-token (automation)' : wallet(a)) },
            { key: 'action', label: 'Action', format: (a) => h('code', {}, a) },
            { key: 'target', label: 'Target', format: (t) => h('code', { class: 'address' }, t) },
            { key: 'before', label: 'Before', format: (v) => (v === null || v === undefined ? h('span', { class: 'none' }, '—') : json(v, 'before')) },
            { key: 'after', label: 'After', format: (v) => (v === null || v === undefined ? h('span', { class: 'none' }, '—') : json(v, 'after')) },
            { key: 'requestId', label: 'Request' },
          ],
          empty: 'no operator action yet.',
        }),
      );
      show(
        more,
        page.nextCursor
          ? button('Older entries', async () => {
              try {
                await load(page.nextCursor);
              } catch (error) {
                show(more, errorBox(error));
              }
            })
          : null,
      );
    };

    show(
      view,
      h('div', { class: 'actions' }, button('Refresh', async () => {
        try {
          await load(undefined);
        } catch (error) {
          show(pages, errorBox(error));
        }
      })),
      pages,
      more,
    );
    await load(undefined).catch((error) => show(pages, errorBox(error)));
  },
};
