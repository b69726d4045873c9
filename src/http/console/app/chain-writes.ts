// Chain writes: the outbox by status (and kind), one write's detail, retry a failed one, cancel a
// queued one. The statuses offered are the API's enum (queued → submitted → confirmed | failed; queued → cancelled).
import { pathsApiAdminChainWritesGetParametersQueryStatusValues as STATUSES } from '../../../generated/openapi';
import type { Answer, Section } from './api';
import { button, cell, code, errorBox, field, h, options, show, table, when } from './ui';

type Write = Answer<'/api/admin/chain-writes', 'get'>['items'][number];

export default {
  id: 'chain-writes',
  title: 'Chain writes',
  async render(view, call) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const more = h('div', { class: 'actions' });
    const detail = h('div', {});
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    const statusSelect = h('select', { name: 'status' }, options([['', 'any'], ...STATUSES]));
    const kindInput = h('input', { name: 'kind' });
    let open: string | null = null;
    let writes: Write[] = [];

    const act = async (action: () => Promise<Write>, done: (w: Write) => string) => {
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
      const path = { id };
      const w = await call((api) => api.GET('/api/admin/chain-writes/{id}', { params: { path } }));
      const retry = () => act(() => call((api) => api.POST('/api/admin/chain-writes/{id}/retry', { params: { path }, body: {} })), (r) => `Chain write ${id} is ${r.status} again.`);
      const cancel = () => act(() => call((api) => api.POST('/api/admin/chain-writes/{id}/cancel', { params: { path }, body: {} })), (r) => `Chain write ${id} is ${r.status}.`);
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Chain write ${id}`, class: 'panel' },
          h('h3', {}, `Chain write ${id}`),
          h('dl', { class: 'detail' }, Object.entries(w).map(([k, v]) => [h('dt', {}, k), h('dd', {}, cell(v))])),
          h(
            'div',
            { class: 'actions' },
            w.status === 'failed' && button('Retry', retry, { 'aria-label': `Retry chain write ${id}` }),
            w.status === 'queued' && button('Cancel', cancel, { 'aria-label': `Cancel chain write ${id}` }),
          ),
        ),
      );
    };

    const load = async (cursor: string | undefined) => {
      const query = { status: STATUSES.find((s) => s === statusSelect.value), kind: kindInput.value.trim() || undefined, cursor };
      const page = await call((api) => api.GET('/api/admin/chain-writes', { params: { query } }));
      writes = cursor ? [...writes, ...page.items] : page.items;
      const toggle = async (w: Write) => {
        open = open === w.id ? null : w.id;
        await load(undefined).catch((error: unknown) => show(list, errorBox(error)));
      };
      show(
        list,
        table({
          caption: statusSelect.value ? `Chain writes: ${statusSelect.value}` : 'Chain writes',
          rows: writes,
          columns: [
            ['Id', (w) => w.id],
            ['Kind', (w) => code(w.kind)],
            ['Status', (w) => w.status],
            ['Attempts', (w) => w.attempts],
            ['Last error', (w) => w.lastError],
            ['Digest', (w) => (w.digest ? h('code', { class: 'address' }, w.digest) : '—')],
            ['Next attempt', (w) => when(w.nextAttemptAt)],
            ['Created', (w) => when(w.createdAt)],
          ],
          actions: (w) => button(open === w.id ? 'Close' : 'Details', () => toggle(w), { 'aria-label': `${open === w.id ? 'Close' : 'Details of'} chain write ${w.id}` }),
          empty: 'none.',
        }),
      );
      const next = page.nextCursor;
      show(more, next ? button('Older writes', () => load(next).catch((error: unknown) => show(more, errorBox(error)))) : null);
      await renderDetail().catch((error: unknown) => show(detail, errorBox(error)));
    };

    const reload = () => load(undefined).catch((error: unknown) => show(list, errorBox(error)));
    statusSelect.addEventListener('change', () => {
      open = null;
      void reload();
    });
    const kindHint = 'e.g. welcome-wheel.payout, giveaway.settle; empty: any.';
    show(view, h('div', { class: 'filters' }, field('Status', statusSelect), field('Kind', kindInput, kindHint), button('Show', reload)), list, more, alert, status, detail);
    await reload();
  },
} satisfies Section;
