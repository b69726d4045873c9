// Chain writes: the queue by status, one write's detail, retry a failed one, cancel one not yet sent.
import { button, cell, errorBox, field, h, listOf, show, table, when } from './ui.js';

/** The statuses the writer records (any other the server names works through the free field). */
const STATUSES = ['', 'pending', 'submitted', 'success', 'failure', 'cancelled'];

/** @param {string | number} id */
const path = (id) => `admin/chain-writes/${encodeURIComponent(String(id))}`;

/** @type {import('./main.js').Section} */
export default {
  id: 'chain-writes',
  title: 'Chain writes',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const detail = h('div', {});
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    const filter = field('Status', { name: 'status', as: 'select', options: STATUSES.map((s) => [s, s || 'any']) });
    const select = /** @type {HTMLSelectElement} */ (filter.querySelector('select'));
    /** @type {string | number | null} */
    let open = null;

    /** @param {() => Promise<unknown>} action @param {string} done */
    const act = async (action, done) => {
      show(alert);
      show(status);
      try {
        await action();
        show(status, done);
        await load();
      } catch (error) {
        show(alert, errorBox(error));
      }
    };

    const renderDetail = async () => {
      if (open === null) return show(detail);
      const id = open;
      const write = await request('GET', path(id));
      const fields = Object.entries(write ?? {});
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Chain write ${id}`, class: 'panel' },
          h('h3', {}, `Chain write ${id}`),
          h('dl', { class: 'detail' }, fields.map(([k, v]) => [h('dt', {}, k), h('dd', {}, cell(v))])),
          h(
            'div',
            { class: 'actions' },
            button('Retry', () => act(() => request('POST', `${path(id)}/retry`), `Chain write ${id} queued again.`), { 'aria-label': `Retry chain write ${id}` }),
            button('Cancel', () => act(() => request('POST', `${path(id)}/cancel`), `Chain write ${id} cancelled.`), { 'aria-label': `Cancel chain write ${id}` }),
          ),
        ),
      );
    };

    const load = async () => {
      const writes = listOf(await request('GET', 'admin/chain-writes', { query: { status: select.value } }), 'writes', 'chainWrites', 'items');
      show(
        list,
        table({
          caption: select.value ? `Chain writes with status ${select.value}` : 'Chain writes',
          rows: writes,
          columns: [
            { key: 'id', label: 'Id' },
            { key: 'kind', label: 'Kind', format: (k) => h('code', {}, k) },
            { key: 'status', label: 'Status' },
            { key: 'attempts', label: 'Attempts' },
            { key: 'error', label: 'Error' },
            { key: 'digest', label: 'Digest', format: (d) => (d ? h('code', { class: 'address' }, d) : '—') },
            { key: 'createdAt', label: 'Created', format: when },
          ],
          actions: (w) => button(open === w.id ? 'Close' : 'Details', async () => {
            open = open === w.id ? null : w.id;
            await load().catch((error) => show(list, errorBox(error)));
          }, { 'aria-label': `${open === w.id ? 'Close' : 'Details of'} chain write ${w.id}` }),
          empty: 'none.',
        }),
      );
      await renderDetail().catch((error) => show(detail, errorBox(error)));
    };

    select.addEventListener('change', () => {
      open = null;
      load().catch((error) => show(list, errorBox(error)));
    });
    show(view, h('div', { class: 'filters' }, filter, button('Refresh', () => load().catch((error) => show(list, errorBox(error))))), list, alert, status, detail);
    await load().catch((error) => show(list, errorBox(error)));
  },
};
