// Moderation: reported chat messages, deleting a message (it disappears from every client), bans.
import { button, errorBox, field, form, h, listOf, show, table, utcInput } from './ui.js';

/** A report's message id and author, whichever fields the answer uses. @param {any} r */
const messageIdOf = (r) => r?.messageId ?? r?.message?.id;
/** @param {any} r */
const authorOf = (r) => r?.author ?? r?.message?.author;

/** @type {import('./main.js').Section} */
export default {
  id: 'moderation',
  title: 'Moderation',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });

    /** @param {string | number} id */
    const deleteMessage = (id) => request('DELETE', `admin/chat/messages/${encodeURIComponent(String(id))}`);

    const banForm = form({
      label: 'Ban a wallet from chat',
      submit: 'Ban',
      fields: [
        field('Wallet address', { name: 'wallet', required: true, autocomplete: 'off', spellcheck: 'false' }),
        field('Banned until (UTC)', { name: 'until', type: 'datetime-local', hint: 'Empty: until unbanned.' }),
        field('Reason', { name: 'reason', as: 'textarea', rows: 2, required: true }),
      ],
      onSubmit: async (v, formEl) => {
        await request('POST', 'admin/chat/bans', { body: { wallet: v.wallet, until: utcInput(v.until) ?? null, reason: v.reason } });
        formEl.reset();
        return `Banned ${v.wallet}.`;
      },
    });

    const load = async () => {
      const reports = listOf(await request('GET', 'admin/chat/reports'), 'reports', 'items');
      show(
        list,
        table({
          caption: 'Reported messages',
          rows: reports,
          actions: (r) => [
            messageIdOf(r) !== undefined &&
              button('Delete message', async () => {
                show(alert);
                try {
                  await deleteMessage(messageIdOf(r));
                  show(status, `Deleted message ${messageIdOf(r)}.`);
                  await load();
                } catch (error) {
                  show(alert, errorBox(error));
                }
              }, { 'aria-label': `Delete message ${messageIdOf(r)}` }),
            authorOf(r) &&
              button('Ban author…', () => {
                const input = /** @type {HTMLInputElement} */ (banForm.querySelector('[name="wallet"]'));
                input.value = authorOf(r);
                input.focus();
              }, { 'aria-label': `Ban ${authorOf(r)}` }),
          ],
          empty: 'no open report.',
        }),
      );
    };

    show(
      view,
      h('div', { class: 'actions' }, button('Refresh reports', async () => {
        show(alert);
        try {
          await load();
        } catch (error) {
          show(alert, errorBox(error));
        }
      })),
      list,
      alert,
      status,
      h('h3', {}, 'Delete a message'),
      form({
        label: 'Delete a chat message',
        submit: 'Delete message',
        fields: [field('Message id', { name: 'id', required: true, inputmode: 'numeric', pattern: '[0-9]+', hint: 'Deleted for every reader at once, over graphql-ws and Socket.IO.' })],
        onSubmit: async (v, formEl) => {
          await deleteMessage(v.id);
          formEl.reset();
          await load().catch(() => undefined);
          return `Deleted message ${v.id}.`;
        },
      }),
      h('h3', {}, 'Ban a wallet'),
      banForm,
      h('h3', {}, 'Lift a ban'),
      form({
        label: 'Lift a chat ban',
        submit: 'Unban',
        fields: [field('Wallet address', { name: 'wallet', required: true, autocomplete: 'off', spellcheck: 'false' })],
        onSubmit: async (v, formEl) => {
          await request('DELETE', `admin/chat/bans/${encodeURIComponent(v.wallet)}`);
          formEl.reset();
          return `Lifted the ban of ${v.wallet}.`;
        },
      }),
    );
    await load().catch((error) => show(list, errorBox(error)));
  },
};
