// Gift projects: create one, set its delivery windows (all at once), load URLs into its stash.
import { button, errorBox, field, form, h, listOf, show, table, toUtcInput, uid, utcInput, when } from './ui.js';

/** @param {string} project */
const path = (project) => `admin/gifts/projects/${encodeURIComponent(project)}`;
/** @param {any} p */
const nameOf = (p) => p?.name;

/**
 * The windows editor: one row per window, rows added and removed here, saved together (PUT).
 * @param {any[]} windows
 * @param {(windows: any[]) => Promise<void>} save
 */
function windowsEditor(windows, save) {
  const body = h('tbody', {});
  const alert = h('div', { class: 'alert-slot' });
  /** @param {any} [w] */
  const addRow = (w) => {
    const n = body.children.length + 1;
    /** @param {string} label @param {Record<string, unknown>} attrs */
    const input = (label, attrs) => h('input', { 'aria-label': `${label}, window ${n}`, id: uid('window'), ...attrs });
    const row = h(
      'tr',
      {},
      h('td', {}, input('Starts (UTC)', { type: 'datetime-local', name: 'startsAt', required: true, value: toUtcInput(w?.startsAt) })),
      h('td', {}, input('Ends (UTC)', { type: 'datetime-local', name: 'endsAt', required: true, value: toUtcInput(w?.endsAt) })),
      h('td', {}, input('Daily quota', { type: 'number', name: 'dailyQuota', min: 0, step: 1, required: true, value: w?.dailyQuota })),
      h('td', {}, input('Enabled', { type: 'checkbox', name: 'enabled', checked: w?.enabled ?? true })),
      h('td', {}, w ? (w.open ? 'open now' : 'closed') : 'new'),
      h('td', {}, w ? String(w.delivered ?? 0) : '—'),
      h('td', {}, button('Remove', () => row.remove(), { 'aria-label': `Remove window ${n}` })),
    );
    body.append(row);
  };
  windows.forEach(addRow);
  const readRows = () =>
    [...body.children].map((row, i) => {
      const get = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (row.querySelector(`[name="${name}"]`));
      for (const name of ['startsAt', 'endsAt', 'dailyQuota']) {
        if (!get(name).checkValidity()) throw new Error(`Window ${i + 1}: ${get(name).getAttribute('aria-label')?.split(',')[0]}: ${get(name).validationMessage}`);
      }
      return { startsAt: utcInput(get('startsAt').value), endsAt: utcInput(get('endsAt').value), dailyQuota: Number(get('dailyQuota').value), enabled: get('enabled').checked };
    });
  return h(
    'div',
    { class: 'windows' },
    h(
      'table',
      {},
      h('caption', {}, 'Delivery windows'),
      h('thead', {}, h('tr', {}, ['Starts (UTC)', 'Ends (UTC)', 'Daily quota', 'Enabled', 'State', 'Delivered', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
      body,
    ),
    h(
      'div',
      { class: 'actions' },
      button('Add window', () => addRow()),
      button('Save windows', async () => {
        show(alert);
        try {
          await save(readRows());
        } catch (error) {
          show(alert, errorBox(error));
        }
      }),
    ),
    alert,
  );
}

/** @type {import('./main.js').Section} */
export default {
  id: 'gifts',
  title: 'Gift projects',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const detail = h('div', {});
    // Outside the project's panel, which is drawn again after each change.
    const status = h('p', { class: 'status', role: 'status' });
    /** @type {string | null} */
    let open = null;
    /** @type {any[]} */
    let projects = [];

    const load = async () => {
      projects = listOf(await request('GET', 'admin/gifts/projects'), 'projects', 'items');
      show(
        list,
        table({
          caption: 'Gift projects',
          rows: projects,
          columns: [
            { key: 'name', label: 'Project', format: (n) => h('code', {}, n) },
            { key: 'title', label: 'Title' },
            { key: 'stash', label: 'Stash left / total', format: (s) => (s ? `${s.left} / ${s.total}` : '—') },
            { key: 'today', label: 'Today delivered / quota', format: (t) => (t ? `${t.delivered} / ${t.limit}` : '—') },
            { key: 'windows', label: 'Windows (open now)', format: (w) => (Array.isArray(w) ? `${w.length} (${w.filter((x) => x.open).length})` : '—') },
            { key: 'createdAt', label: 'Created', format: when },
          ],
          actions: (p) => button(open === nameOf(p) ? 'Close' : 'Open', () => ((open = open === nameOf(p) ? null : nameOf(p)), renderDetail()), { 'aria-label': `${open === nameOf(p) ? 'Close' : 'Open'} project ${nameOf(p)}` }),
          empty: 'none yet.',
        }),
      );
      renderDetail();
    };

    const renderDetail = () => {
      const p = projects.find((x) => nameOf(x) === open);
      if (!p) return show(detail);
      const name = nameOf(p);
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Project ${name}`, class: 'panel' },
          h('h3', {}, `Project ${name}`),
          windowsEditor(Array.isArray(p.windows) ? p.windows : [], async (windows) => {
            show(status);
            await request('PUT', `${path(name)}/windows`, { body: { windows } });
            await load();
            show(status, `Saved ${windows.length} window(s) of ${name}.`);
          }),
          h('h4', {}, 'Load the stash'),
          form({
            label: `Load gift URLs into ${name}`,
            submit: 'Add to stash',
            fields: [field('Gift URLs, one per line', { name: 'urls', as: 'textarea', rows: 5, required: true, hint: 'Absolute http(s) URLs; a URL already stashed is skipped.' })],
            onSubmit: async (v) => {
              show(status);
              const urls = String(v.urls).split(/\s+/).filter(Boolean);
              const answer = await request('POST', `${path(name)}/stash`, { body: { urls } });
              await load();
              show(status, `Added ${answer.added} URL(s), skipped ${answer.skipped} already stashed.`);
            },
          }),
        ),
      );
    };

    show(
      view,
      list,
      status,
      detail,
      h('h3', {}, 'Create a gift project'),
      form({
        label: 'Create a gift project',
        submit: 'Create project',
        fields: [
          field('Project name', { name: 'name', required: true, pattern: '[a-z0-9][a-z0-9_\\-]*', hint: 'Lowercase letters, digits, - and _; what /api/gift/get?project= names.' }),
          field('Title', { name: 'title', hint: 'Shown to operators.' }),
        ],
        onSubmit: async (v, formEl) => {
          const created = await request('POST', 'admin/gifts/projects', { body: { name: v.name, title: v.title } });
          formEl.reset();
          open = created.name;
          await load();
          return `Created project ${created.name}.`;
        },
      }),
    );
    await load().catch((error) => show(list, errorBox(error)));
  },
};
