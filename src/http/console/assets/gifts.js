// Gift projects: create one, set its delivery windows (all at once), load URLs into its stash.
import { button, errorBox, field, form, h, listOf, show, table, toUtcInput, uid, utcInput } from './ui.js';

/** @param {string} project */
const path = (project) => `admin/gifts/projects/${encodeURIComponent(project)}`;
/** A project's name, whichever field the answer uses. @param {any} p */
const nameOf = (p) => p?.project ?? p?.name ?? p?.slug;

/**
 * The windows editor: one row per window, rows added and removed here, saved together (PUT).
 * @param {any[]} windows
 * @param {(windows: any[]) => Promise<string>} save
 */
function windowsEditor(windows, save) {
  const body = h('tbody', {});
  const alert = h('div', { class: 'alert-slot' });
  const status = h('p', { class: 'status', role: 'status' });
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
      h('thead', {}, h('tr', {}, ['Starts (UTC)', 'Ends (UTC)', 'Daily quota', 'Enabled', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
      body,
    ),
    h(
      'div',
      { class: 'actions' },
      button('Add window', () => addRow()),
      button('Save windows', async () => {
        show(alert);
        show(status);
        try {
          show(status, await save(readRows()));
        } catch (error) {
          show(alert, errorBox(error));
        }
      }),
    ),
    alert,
    status,
  );
}

/** @type {import('./main.js').Section} */
export default {
  id: 'gifts',
  title: 'Gift projects',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const detail = h('div', {});
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
            await request('PUT', `${path(name)}/windows`, { body: { windows } });
            await load();
            return `Saved ${windows.length} window(s) of ${name}.`;
          }),
          h('h4', {}, 'Load the stash'),
          form({
            label: `Load gift URLs into ${name}`,
            submit: 'Add to stash',
            fields: [field('Gift URLs, one per line', { name: 'urls', as: 'textarea', rows: 5, required: true, hint: 'Absolute http(s) URLs; a URL already stashed is skipped.' })],
            onSubmit: async (v, formEl) => {
              const urls = String(v.urls).split(/\s+/).filter(Boolean);
              const answer = await request('POST', `${path(name)}/stash`, { body: { urls } });
              formEl.reset();
              await load();
              return answer && typeof answer.added === 'number' ? `Added ${answer.added} URL(s), skipped ${answer.skipped ?? 0}.` : `Sent ${urls.length} URL(s).`;
            },
          }),
        ),
      );
    };

    show(
      view,
      list,
      detail,
      h('h3', {}, 'Create a gift project'),
      form({
        label: 'Create a gift project',
        submit: 'Create project',
        fields: [field('Project name', { name: 'project', required: true, pattern: '[a-z0-9][a-z0-9_\\-]*', hint: 'Lowercase letters, digits, - and _.' })],
        onSubmit: async (v, formEl) => {
          await request('POST', 'admin/gifts/projects', { body: { project: v.project } });
          formEl.reset();
          open = v.project;
          await load();
          return `Created project ${v.project}.`;
        },
      }),
    );
    await load().catch((error) => show(list, errorBox(error)));
  },
};
