// Operators: who holds the role (by setting or granted), grant and revoke.
import { button, errorBox, field, form, h, show, table, wallet, when } from './ui.js';

/** @type {import('./main.js').Section} */
export default {
  id: 'operators',
  title: 'Operators',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });

    const load = async () => {
      const { operators } = await request('GET', 'admin/operators');
      show(
        list,
        table({
          caption: 'Operator wallets',
          rows: operators,
          columns: [
            { key: 'wallet', label: 'Wallet', format: wallet },
            { key: 'source', label: 'Source', format: (s) => (s === 'setting' ? 'OPERATOR_WALLETS setting' : 'granted') },
            { key: 'grantedBy', label: 'Granted by', format: (w) => wallet(w) },
            { key: 'grantedAt', label: 'Granted at', format: when },
          ],
          actions: (row) =>
            row.source === 'grant'
              ? button(
                  'Revoke',
                  async () => {
                    show(alert);
                    try {
                      await request('DELETE', `admin/operators/${encodeURIComponent(row.wallet)}`);
                      show(status, `Revoked the operator role of ${row.wallet}.`);
                      await load();
                    } catch (error) {
                      show(alert, errorBox(error));
                    }
                  },
                  { 'aria-label': `Revoke ${row.wallet}` },
                )
              : h('span', { class: 'none' }, 'Removed only in the setting'),
        }),
      );
    };

    show(
      view,
      list,
      alert,
      status,
      h('h3', {}, 'Grant the operator role'),
      form({
        label: 'Grant the operator role',
        submit: 'Grant',
        fields: [field('Wallet address', { name: 'wallet', required: true, autocomplete: 'off', spellcheck: 'false', hint: 'A Sui address (0x and 64 hex digits). The wallet can act at once, on every replica.' })],
        async onSubmit(values, formEl) {
          const granted = await request('POST', 'admin/operators', { body: { wallet: values.wallet } });
          formEl.reset();
          await load();
          return `Granted the operator role to ${granted.wallet}.`;
        },
      }),
    );
    await load().catch((error) => show(list, errorBox(error)));
  },
};
