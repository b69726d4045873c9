// Moderation: the players' report queue, removing a message (gone for every reader at once),
// dismissing a report, bans.
import { button, errorBox, field, form, h, listOf, show, table, utcInput, wallet, when } from './ui.js';

const REPORT_STATUSES = ['open', 'dismissed', 'removed'];

/** @type {import('./main.js').Section} */
export default {
  id: 'moderation',
  title: 'Moderation',
  async render(view, { request }) {
    const reportsEl = h('div', {}, h('p', {}, 'Loading…'));
    const more = h('div', { class: 'actions' });
    const bansEl = h('div', {}, h('p', {}, 'Loading…'));
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    const statusField = field('Reports', { name: 'reportStatus', as: 'select', options: REPORT_STATUSES });
    const statusSelect = /** @type {HTMLSelectElement} */ (statusField.querySelector('select'));
    /** @type {any[]} */
    let reports = [];

    /** @param {() => Promise<unknown>} action @param {string} done */
    const act = async (action, done) => {
      show(alert);
      show(status);
      try {
        await action();
        show(status, done);
        await Promise.all([loadReports(undefined), loadBans()]);
      } catch (error) {
        show(alert, errorBox(error));
      }
    };
    /** @param {string} id */
    const removeMessage = (id) => request('DELETE', `admin/chat/messages/${encodeURIComponent(id)}`);

    const banForm = form({
      label: 'Ban a wallet from chat',
      submit: 'Ban',
      fields: [
        field('Wallet address', { name: 'wallet', required: true, autocomplete: 'off', spellcheck: 'false' }),
        field('Banned until (UTC)', { name: 'until', type: 'datetime-local', hint: 'Empty: until the ban is lifted.' }),
        field('Reason', { name: 'reason', as: 'textarea', rows: 2, required: true, maxlength: 500, hint: 'Kept for operators; the wallet is not shown it.' }),
      ],
      onSubmit: async (v, formEl) => {
        const ban = await request('POST', 'admin/chat/bans', { body: { wallet: v.wallet, until: utcInput(v.until) ?? null, reason: v.reason } });
        formEl.reset();
        await loadBans();
        return `Banned ${ban.wallet} from chat${ban.until ? ` until ${ban.until}` : ''}.`;
      },
    });

    /** @param {string | undefined} cursor */
    const loadReports = async (cursor) => {
      const page = await request('GET', 'admin/chat/reports', { query: { status: statusSelect.value, cursor } });
      const items = listOf(page, 'items');
      reports = cursor ? [...reports, ...items] : items;
      show(
        reportsEl,
        table({
          caption: `Reports: ${statusSelect.value}`,
          rows: reports,
          columns: [
            { key: 'createdAt', label: 'Reported', format: when },
            { key: 'room', label: 'Room' },
            { key: 'messageText', label: 'Message', format: (text, r) => h('span', {}, h('code', {}, `#${r.messageId}`), ' ', r.messageRemoved ? h('del', {}, text) : text) },
            { key: 'messageAuthor', label: 'Author', format: wallet },
            { key: 'reporter', label: 'Reported by', format: wallet },
            { key: 'reason', label: 'Reason' },
            { key: 'status', label: 'Status', format: (s, r) => (r.resolvedBy ? h('span', {}, `${s} by `, wallet(r.resolvedBy), r.note ? ` (${r.note})` : '') : s) },
          ],
          actions: (r) =>
            r.status === 'open'
              ? [
                  !r.messageRemoved &&
                    button('Remove message', () => act(() => removeMessage(r.messageId), `Removed message ${r.messageId}.`), { 'aria-label': `Remove message ${r.messageId}` }),
                  button('Dismiss', () => act(() => request('POST', `admin/chat/reports/${encodeURIComponent(r.id)}/dismiss`, { body: {} }), `Dismissed report ${r.id}.`), {
                    'aria-label': `Dismiss report ${r.id}`,
                  }),
                  button('Ban author…', () => {
                    const input = /** @type {HTMLInputElement} */ (banForm.querySelector('[name="wallet"]'));
                    input.value = r.messageAuthor;
                    input.focus();
                  }, { 'aria-label': `Ban ${r.messageAuthor}` }),
                ]
              : null,
          empty: 'none.',
        }),
      );
      show(more, page?.nextCursor ? button('More reports', () => loadReports(page.nextCursor).catch((error) => show(more, errorBox(error)))) : null);
    };

    const loadBans = async () => {
      const bans = listOf(await request('GET', 'admin/chat/bans'), 'bans');
      show(
        bansEl,
        table({
          caption: 'Wallets banned from chat',
          rows: bans,
          columns: [
            { key: 'wallet', label: 'Wallet', format: wallet },
            { key: 'until', label: 'Until', format: (u) => (u ? when(u) : 'lifted by an operator') },
            { key: 'reason', label: 'Reason' },
            { key: 'bannedBy', label: 'Banned by', format: wallet },
            { key: 'bannedAt', label: 'Banned at', format: when },
          ],
          actions: (b) => button('Lift ban', () => act(() => request('DELETE', `admin/chat/bans/${encodeURIComponent(b.wallet)}`), `Lifted the ban of ${b.wallet}.`), { 'aria-label': `Lift the ban of ${b.wallet}` }),
          empty: 'nobody.',
        }),
      );
    };

    statusSelect.addEventListener('change', () => void loadReports(undefined).catch((error) => show(reportsEl, errorBox(error))));
    show(
      view,
      h('div', { class: 'filters' }, statusField, button('Refresh', () => act(async () => undefined, ''))),
      alert,
      status,
      reportsEl,
      more,
      h('h3', {}, 'Remove a message'),
      form({
        label: 'Remove a chat message',
        submit: 'Remove message',
        fields: [field('Message id', { name: 'id', required: true, inputmode: 'numeric', pattern: '[0-9]+', hint: 'Gone from history and from every reader at once, over graphql-ws and Socket.IO.' })],
        onSubmit: async (v, formEl) => {
          await removeMessage(v.id);
          formEl.reset();
          await loadReports(undefined).catch(() => undefined);
          return `Removed message ${v.id}.`;
        },
      }),
      h('h3', {}, 'Bans'),
      bansEl,
      h('h4', {}, 'Ban a wallet'),
      banForm,
    );
    await Promise.all([loadReports(undefined).catch((error) => show(reportsEl, errorBox(error))), loadBans().catch((error) => show(bansEl, errorBox(error)))]);
  },
};
