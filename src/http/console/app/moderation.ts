// Moderation: the players' report queue, removing a message (gone for every reader at once),
// dismissing a report, bans. The report statuses offered are the API's enum.
import { pathsApiAdminChatReportsGetParametersQueryStatusValues as REPORT_STATUSES } from '../../../generated/openapi';
import type { Answer, Section } from './api';
import { button, code, errorBox, field, form, h, options, show, table, utcInput, wallet, when } from './ui';

type Report = Answer<'/api/admin/chat/reports', 'get'>['items'][number];

export default {
  id: 'moderation',
  title: 'Moderation',
  async render(view, call) {
    const reportsEl = h('div', {}, h('p', {}, 'Loading…'));
    const more = h('div', { class: 'actions' });
    const bansEl = h('div', {}, h('p', {}, 'Loading…'));
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    const statusSelect = h('select', { name: 'reportStatus' }, options(REPORT_STATUSES));
    let reports: Report[] = [];

    const act = async (action: () => Promise<unknown>, done: string) => {
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
    const removeMessage = (id: string) => call((api) => api.DELETE('/api/admin/chat/messages/{id}', { params: { path: { id } } }));
    const dismiss = (id: string) => call((api) => api.POST('/api/admin/chat/reports/{id}/dismiss', { params: { path: { id } }, body: {} }));
    const lift = (w: string) => call((api) => api.DELETE('/api/admin/chat/bans/{wallet}', { params: { path: { wallet: w } } }));

    const walletInput = h('input', { name: 'wallet', required: true, autocomplete: 'off', spellcheck: 'false' });
    const banForm = form({
      label: 'Ban a wallet from chat',
      submit: 'Ban',
      fields: [
        field('Wallet address', walletInput),
        field('Banned until (UTC)', h('input', { name: 'until', type: 'datetime-local' }), 'Empty: until the ban is lifted.'),
        field('Reason', h('textarea', { name: 'reason', rows: 2, required: true, maxlength: 500 }), 'Kept for operators; the wallet is not shown it.'),
      ],
      onSubmit: async (v, formEl) => {
        const body = { wallet: v.required('wallet'), until: utcInput(v.text('until')) ?? null, reason: v.required('reason') };
        const ban = await call((api) => api.POST('/api/admin/chat/bans', { body }));
        formEl.reset();
        await loadBans();
        return `Banned ${ban.wallet} from chat${ban.until ? ` until ${ban.until}` : ''}.`;
      },
    });

    const reportActions = (r: Report) => {
      if (r.status !== 'open') return null;
      const banAuthor = () => {
        walletInput.value = r.messageAuthor;
        walletInput.focus();
      };
      return [
        !r.messageRemoved && button('Remove message', () => act(() => removeMessage(r.messageId), `Removed message ${r.messageId}.`), { 'aria-label': `Remove message ${r.messageId}` }),
        button('Dismiss', () => act(() => dismiss(r.id), `Dismissed report ${r.id}.`), { 'aria-label': `Dismiss report ${r.id}` }),
        button('Ban author…', banAuthor, { 'aria-label': `Ban ${r.messageAuthor}` }),
      ];
    };
    const loadReports = async (cursor: string | undefined) => {
      const query = { status: REPORT_STATUSES.find((s) => s === statusSelect.value), cursor };
      const page = await call((api) => api.GET('/api/admin/chat/reports', { params: { query } }));
      reports = cursor ? [...reports, ...page.items] : page.items;
      show(
        reportsEl,
        table({
          caption: `Reports: ${statusSelect.value}`,
          rows: reports,
          columns: [
            ['Reported', (r) => when(r.createdAt)],
            ['Room', (r) => r.room],
            ['Message', (r) => h('span', {}, code(`#${r.messageId}`), ' ', r.messageRemoved ? h('del', {}, r.messageText) : r.messageText)],
            ['Author', (r) => wallet(r.messageAuthor)],
            ['Reported by', (r) => wallet(r.reporter)],
            ['Reason', (r) => r.reason],
            ['Status', (r) => (r.resolvedBy ? h('span', {}, `${r.status} by `, wallet(r.resolvedBy), r.note ? ` (${r.note})` : '') : r.status)],
          ],
          actions: reportActions,
          empty: 'none.',
        }),
      );
      const next = page.nextCursor;
      show(more, next ? button('More reports', () => loadReports(next).catch((error: unknown) => show(more, errorBox(error)))) : null);
    };

    const loadBans = async () => {
      const { bans } = await call((api) => api.GET('/api/admin/chat/bans'));
      show(
        bansEl,
        table({
          caption: 'Wallets banned from chat',
          rows: bans,
          columns: [
            ['Wallet', (b) => wallet(b.wallet)],
            ['Until', (b) => (b.until ? when(b.until) : 'lifted by an operator')],
            ['Reason', (b) => b.reason],
            ['Banned by', (b) => wallet(b.bannedBy)],
            ['Banned at', (b) => when(b.bannedAt)],
          ],
          actions: (b) => button('Lift ban', () => act(() => lift(b.wallet), `Lifted the ban of ${b.wallet}.`), { 'aria-label': `Lift the ban of ${b.wallet}` }),
          empty: 'nobody.',
        }),
      );
    };

    const messageHint = 'Gone from history and from every reader at once, over graphql-ws and Socket.IO.';
    statusSelect.addEventListener('change', () => void loadReports(undefined).catch((error: unknown) => show(reportsEl, errorBox(error))));
    show(
      view,
      h('div', { class: 'filters' }, field('Reports', statusSelect), button('Refresh', () => act(async () => undefined, ''))),
      alert,
      status,
      reportsEl,
      more,
      h('h3', {}, 'Remove a message'),
      form({
        label: 'Remove a chat message',
        submit: 'Remove message',
        fields: [field('Message id', h('input', { name: 'id', required: true, inputmode: 'numeric', pattern: '[0-9]+' }), messageHint)],
        onSubmit: async (v, formEl) => {
          const id = v.required('id');
          await removeMessage(id);
          formEl.reset();
          await loadReports(undefined).catch(() => undefined);
          return `Removed message ${id}.`;
        },
      }),
      h('h3', {}, 'Bans'),
      bansEl,
      h('h4', {}, 'Ban a wallet'),
      banForm,
    );
    await Promise.all([loadReports(undefined).catch((error: unknown) => show(reportsEl, errorBox(error))), loadBans().catch((error: unknown) => show(bansEl, errorBox(error)))]);
  },
} satisfies Section;
