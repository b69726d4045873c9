// Gift projects: create one, set its delivery windows (all at once), load URLs into its stash.
import type { Answer, Input, Section } from './api';
import { button, code, errorBox, field, form, h, show, table, toUtcInput, uid, utcInput, when } from './ui';

type Project = Answer<'/api/admin/gifts/projects', 'get'>['projects'][number];
type Window = Project['windows'][number];
type WindowInput = Input<'/api/admin/gifts/projects/{project}/windows', 'put'>['windows'][number];

/** A required datetime-local value (checked valid first), read as UTC. */
const utc = (value: string): string => utcInput(value) ?? '';

/** The windows editor: one row per window, rows added and removed here, saved together (PUT). */
function windowsEditor(windows: Window[], save: (windows: WindowInput[]) => Promise<void>) {
  const body = h('tbody', {});
  const alert = h('div', { class: 'alert-slot' });
  const inputsOf = new Map<HTMLTableRowElement, Record<'startsAt' | 'endsAt' | 'dailyQuota' | 'enabled', HTMLInputElement>>();
  const addRow = (w?: Window) => {
    const n = body.children.length + 1;
    const input = (label: string, attrs: Record<string, string | number | boolean | undefined>) => h('input', { 'aria-label': `${label}, window ${n}`, id: uid('window'), ...attrs });
    const inputs = {
      startsAt: input('Starts (UTC)', { type: 'datetime-local', name: 'startsAt', required: true, value: toUtcInput(w?.startsAt) }),
      endsAt: input('Ends (UTC)', { type: 'datetime-local', name: 'endsAt', required: true, value: toUtcInput(w?.endsAt) }),
      dailyQuota: input('Daily quota', { type: 'number', name: 'dailyQuota', min: 0, step: 1, required: true, value: w?.dailyQuota }),
      enabled: input('Enabled', { type: 'checkbox', name: 'enabled', checked: w?.enabled ?? true }),
    };
    const row: HTMLTableRowElement = h(
      'tr',
      {},
      Object.values(inputs).map((el) => h('td', {}, el)),
      h('td', {}, w ? (w.open ? 'open now' : 'closed') : 'new'),
      h('td', {}, w ? String(w.delivered) : '—'),
      h('td', {}, button('Remove', () => row.remove(), { 'aria-label': `Remove window ${n}` })),
    );
    inputsOf.set(row, inputs);
    body.append(row);
  };
  windows.forEach((w) => addRow(w));
  const readRows = () =>
    [...body.rows].map((row, i) => {
      const inputs = inputsOf.get(row)!;
      for (const el of [inputs.startsAt, inputs.endsAt, inputs.dailyQuota]) {
        if (!el.checkValidity()) throw new Error(`Window ${i + 1}: ${el.getAttribute('aria-label')?.split(',')[0]}: ${el.validationMessage}`);
      }
      return { startsAt: utc(inputs.startsAt.value), endsAt: utc(inputs.endsAt.value), dailyQuota: Number(inputs.dailyQuota.value), enabled: inputs.enabled.checked };
    });
  const saveAll = async () => {
    show(alert);
    try {
      await save(readRows());
    } catch (error) {
      show(alert, errorBox(error));
    }
  };
  const headings = ['Starts (UTC)', 'Ends (UTC)', 'Daily quota', 'Enabled', 'State', 'Delivered', 'Actions'];
  return h(
    'div',
    { class: 'windows' },
    h('table', {}, h('caption', {}, 'Delivery windows'), h('thead', {}, h('tr', {}, headings.map((t) => h('th', { scope: 'col' }, t)))), body),
    h('div', { class: 'actions' }, button('Add window', () => addRow()), button('Save windows', saveAll)),
    alert,
  );
}

export default {
  id: 'gifts',
  title: 'Gift projects',
  async render(view, call) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const detail = h('div', {});
    // Outside the project's panel, which is drawn again after each change.
    const status = h('p', { class: 'status', role: 'status' });
    let open: string | null = null;
    let projects: Project[] = [];

    const load = async () => {
      ({ projects } = await call((api) => api.GET('/api/admin/gifts/projects')));
      const toggle = (p: Project) => {
        open = open === p.name ? null : p.name;
        renderDetail();
      };
      show(
        list,
        table({
          caption: 'Gift projects',
          rows: projects,
          columns: [
            ['Project', (p) => code(p.name)],
            ['Title', (p) => p.title],
            ['Stash left / total', (p) => `${p.stash.left} / ${p.stash.total}`],
            ['Today delivered / quota', (p) => `${p.today.delivered} / ${p.today.limit}`],
            ['Windows (open now)', (p) => `${p.windows.length} (${p.windows.filter((w) => w.open).length})`],
            ['Created', (p) => when(p.createdAt)],
          ],
          actions: (p) => {
            const verb = open === p.name ? 'Close' : 'Open';
            return button(verb, () => toggle(p), { 'aria-label': `${verb} project ${p.name}` });
          },
          empty: 'none yet.',
        }),
      );
      renderDetail();
    };

    const renderDetail = () => {
      const p = projects.find((x) => x.name === open);
      if (!p) return show(detail);
      const { name } = p;
      const path = { project: name };
      const saveWindows = async (windows: WindowInput[]) => {
        show(status);
        await call((api) => api.PUT('/api/admin/gifts/projects/{project}/windows', { params: { path }, body: { windows } }));
        await load();
        show(status, `Saved ${windows.length} window(s) of ${name}.`);
      };
      const urlsHint = 'Absolute http(s) URLs; a URL already stashed is skipped.';
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Project ${name}`, class: 'panel' },
          h('h3', {}, `Project ${name}`),
          windowsEditor(p.windows, saveWindows),
          h('h4', {}, 'Load the stash'),
          form({
            label: `Load gift URLs into ${name}`,
            submit: 'Add to stash',
            fields: [field('Gift URLs, one per line', h('textarea', { name: 'urls', rows: 5, required: true }), urlsHint)],
            onSubmit: async (v) => {
              show(status);
              const urls = v.required('urls').split(/\s+/).filter(Boolean);
              const answer = await call((api) => api.POST('/api/admin/gifts/projects/{project}/stash', { params: { path }, body: { urls } }));
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
          field('Project name', h('input', { name: 'name', required: true, pattern: '[a-z0-9][a-z0-9_\\-]*' }), 'Lowercase letters, digits, - and _; what /api/gift/get?project= names.'),
          field('Title', h('input', { name: 'title' }), 'Shown to operators.'),
        ],
        onSubmit: async (v, formEl) => {
          const created = await call((api) => api.POST('/api/admin/gifts/projects', { body: { name: v.required('name'), title: v.text('title') } }));
          formEl.reset();
          open = created.name;
          await load();
          return `Created project ${created.name}.`;
        },
      }),
    );
    await load().catch((error: unknown) => show(list, errorBox(error)));
  },
} satisfies Section;
