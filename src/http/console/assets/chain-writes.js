// Chain writes: the outbox by status (and kind), one write's detail, retry a failed one, cancel a queued one.
import { button, cell, errorBox, field, h, listOf, show, table, when } from './ui.js';

/** queued → submitted → confirmed | failed; queued → cancelled. */
const STATUSES = ['queued', 'submitted', 'confirmed', 'failed', 'cancelled'];

/** @param {string | number} id */
const path = (id) => `admin/chain-writes/${encodeURIComponent(String(id))}`;

/** @type {import('./main.js').Section} */
export default {
  id: 'chain-writes',
  title: 'Chain writes',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const more = h('div', { class: 'actions' });
    const detail = h('div', {});
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    const statusField = field('Status', { name: 'status', as: 'select', options: [['', 'any'], ...STATUSES] });
    const kindField = field('Kind', { name: 'kind', hint: 'e.g. welcome-wheel.payout, giveaway.settle; empty: any.' });
    const statusSelect = /** @type {HTMLSelectElement} */ (statusField.querySelector('select'));
    const kindInput = /** @type {HTMLInputElement} */ (kindField.querySelector('input'));
    /** @type {string | null} */
    let open = null;
    /** @type {any[]} */
    let writes = [];

    /** @param {() => Promise<any>} action @param {(w: any) => string} done */
    const act = async (action, done) => {
      show(alert);
      show(status);
      try {
        show(status, done(await action()));
        await load(undefined);
      } catch (error) {
        show(alert, errorBox(error));
      }
    };

    const renderDetail = async () => {
      if (open === null) return show(detail);
      const id = open;
      const w = await request('GET', path(id));
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Chain write ${id}`, class: 'panel' },
          h('h3', {}, `Chain write ${id}`),
          h('dl', { class: 'detail' }, Object.entries(w ?? {}).map(([k, v]) => [h('dt', {}, k), h('dd', {}, cell(v))])),
          h(
            'div',
            { class: 'actions' },
            w.status === 'failed' &&
              button('Retry', () => act(() => request('POST', `${path(id)}/retry`), (r) => `Chain write ${id} is ${r.status} again.`), { 'aria-label': `Retry chain write ${id}` }),
            w.status === 'queued' &&
              button('Cancel', () => act(() => request('POST', `${path(id)}/cancel`), (r) => `Chain write ${id} is ${r.status}.`), { 'aria-label': `Cancel chain write ${id}` }),
          ),
        ),
      );
    };

    /** @param {string | undefined} cursor */
    const load = async (cursor) => {
      const page = await request('GET', 'admin/chain-writes', { query: { status: statusSelect.value, kind: kindInput.value.trim(), cursor } });
      const items = listOf(page, 'items');
      writes = cursor ? [...writes, ...items] : items;
      show(
        list,
        table({
          caption: statusSelect.value ? `Chain writes: ${statusSelect.value}` : 'Chain writes',
          rows: writes,
          columns: [
            { key: 'id', label: 'Id' },
            { key: 'kind', label: 'Kind', format: (k) => h('code', {}, k) },
            { key: 'status', label: 'Status' },
            { key: 'attempts', label: 'Attempts' },
            { key: 'lastError', label: 'Last error' },
            { key: 'digest', label: 'Digest', format: (d) => (d ? h('code', { class: 'address' }, d) : '—') },
            { key: 'nextAttemptAt', label: 'Next attempt', format: when },
            { key: 'createdAt', label: 'Created', format: when },
          ],
          actions: (w) =>
            button(open === w.id ? 'Close' : 'Details', async () => {
              open = open === w.id ? null : w.id;
              await load(undefined).catch((error) => show(list, errorBox(error)));
            }, { 'aria-label': `${open === w.id ? 'Close' : 'Details of'} chain write ${w.id}` }),
          empty: 'none.',
        }),
      );
      show(more, page?.nextCursor ? button('Older writes', () => load(page.nextCursor).catch((error) => show(more, errorBox(error)))) : null);
      await renderDetail().catch((error) => show(detail, errorBox(error)));
    };

    const reload = () => load(undefined).catch((error) => show(list, errorBox(error)));
    statusSelect.addEventListener('change', () => {
      open = null;
      void reload();
    });
    show(view, h('div', { class: 'filters' }, statusField, kindField, button('Show', reload)), list, more, alert, status, detail);
    await reload();
  },
};
