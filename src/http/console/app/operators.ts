// Operators: who holds the role (by setting or granted), grant and revoke.
import type { Answer, Section } from './api';
import { button, errorBox, field, form, h, none, show, table, wallet, when } from './ui';

type Operator = Answer<'/api/admin/operators', 'get'>['operators'][number];

export default {
  id: 'operators',
  title: 'Operators',
  async render(view, call) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });

    const revoke = async (row: Operator) => {
      show(alert);
      try {
        await call((api) => api.DELETE('/api/admin/operators/{wallet}', { params: { path: { wallet: row.wallet } } }));
        show(status, `Revoked the operator role of ${row.wallet}.`);
        await load();
      } catch (error) {
        show(alert, errorBox(error));
      }
    };
    const load = async () => {
      const { operators } = await call((api) => api.GET('/api/admin/operators'));
      show(
        list,
        table({
          caption: 'Operator wallets',
          rows: operators,
          columns: [
            ['Wallet', (o) => wallet(o.wallet)],
            ['Source', (o) => (o.source === 'setting' ? 'OPERATOR_WALLETS setting' : 'granted')],
            ['Granted by', (o) => wallet(o.grantedBy)],
            ['Granted at', (o) => when(o.grantedAt)],
          ],
          actions: (o) => (o.source === 'grant' ? button('Revoke', () => revoke(o), { 'aria-label': `Revoke ${o.wallet}` }) : none('Removed only in the setting')),
          empty: 'Nothing yet.',
        }),
      );
    };

    const hint = 'A Sui address (0x and 64 hex digits). The wallet can act at once, on every replica.';
    show(
      view,
      list,
      alert,
      status,
      h('h3', {}, 'Grant the operator role'),
      form({
        label: 'Grant the operator role',
        submit: 'Grant',
        fields: [field('Wallet address', h('input', { name: 'wallet', required: true, autocomplete: 'off', spellcheck: 'false' }), hint)],
        async onSubmit(values, formEl) {
          const granted = await call((api) => api.POST('/api/admin/operators', { body: { wallet: values.required('wallet') } }));
          formEl.reset();
          await load();
          return `Granted the operator role to ${granted.wallet}.`;
        },
      }),
    );
    await load().catch((error: unknown) => show(list, errorBox(error)));
  },
} satisfies Section;
