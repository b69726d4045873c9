// Campaigns and their quests: create, edit (with the version read, so a stale edit is refused),
// enable and disable.
import { button, errorBox, field, form, h, listOf, show, table, toUtcInput, utcInput, when } from './ui.js';

const PERIODS = ['daily', 'weekly', 'once'];
/** The evaluator kinds the quest service knows (it refuses others with its own message). */
const EVALUATORS = ['bets_placed', 'bets_won', 'wagered', 'daily_streak_claims', 'vip_level', 'referrals', 'login_streak'];

/** @param {Record<string, unknown>} o */
const compact = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** @param {string | undefined} text */
function params(text) {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new Error('Evaluator parameters: not JSON (write an object such as {"coinType": "0x2::sui::SUI"}).');
  }
}

/** The request body of a campaign form. @param {Record<string, any>} v */
const campaignBody = (v) =>
  compact({
    slug: v.slug,
    type: v.type,
    name: v.name,
    title: v.title,
    description: v.description,
    copyText: v.copyText,
    startAt: utcInput(v.startAt),
    endAt: utcInput(v.endAt),
    managesClaims: v.managesClaims,
    enabled: v.enabled,
  });

/** The request body of a quest form. @param {Record<string, any>} v */
const questBody = (v) =>
  compact({
    key: v.key,
    title: v.title,
    description: v.description,
    xpReward: v.xpReward,
    timePeriod: v.timePeriod,
    evaluator: v.evaluatorKind ? { kind: v.evaluatorKind, params: params(v.evaluatorParams) } : undefined,
    target: v.target,
    enabled: v.enabled,
    startAt: utcInput(v.startAt),
    endAt: utcInput(v.endAt),
  });

/** A stale edit: say what to do about it. @param {any} error */
const refusal = (error) =>
  error?.code === 'VERSION_CONFLICT'
    ? { code: error.code, details: error.details, message: `${error.message} Someone changed it after you loaded it: the list is reloaded, check and edit again.` }
    : error;

/** @param {any} c campaign (or undefined for a new one) */
function campaignFields(c) {
  return [
    c ? null : field('Slug', { name: 'slug', required: true, pattern: '[a-z0-9][a-z0-9\\-]*', hint: 'Lowercase letters, digits and dashes; the campaign’s address, not changed later.' }),
    field('Type', { name: 'type', required: !c, value: c?.type }),
    field('Name', { name: 'name', value: c?.name ?? undefined }),
    field('Title', { name: 'title', value: c?.title ?? undefined }),
    field('Description', { name: 'description', as: 'textarea', rows: 2, value: c?.description ?? undefined }),
    field('Copy text', { name: 'copyText', as: 'textarea', rows: 2, value: c?.copyText ?? undefined }),
    field('Starts (UTC)', { name: 'startAt', type: 'datetime-local', required: !c, value: toUtcInput(c?.startAt) }),
    field('Ends (UTC)', { name: 'endAt', type: 'datetime-local', required: !c, value: toUtcInput(c?.endAt) }),
    field('The partner manages claims', { name: 'managesClaims', type: 'checkbox', checked: c?.managesClaims ?? false }),
    field('Enabled', { name: 'enabled', type: 'checkbox', checked: c?.enabled ?? true }),
  ];
}

/** @param {any} q quest (or undefined for a new one) */
function questFields(q) {
  const { kind, ...rest } = q?.evaluator ?? {};
  const evaluatorParams = q?.evaluator?.params ?? (Object.keys(rest).length ? rest : undefined);
  return [
    q ? null : field('Quest key', { name: 'key', required: true, pattern: '[a-z0-9][a-z0-9\\-]*', hint: 'Lowercase letters, digits and dashes; unique in the campaign.' }),
    field('Title', { name: 'title', required: !q, value: q?.title }),
    field('Description', { name: 'description', as: 'textarea', rows: 2, required: !q, value: q?.description }),
    field('XP reward', { name: 'xpReward', type: 'number', min: 1, step: 1, required: !q, value: q?.xpReward }),
    field('Period', { name: 'timePeriod', as: 'select', options: PERIODS, value: q?.timePeriod ?? 'daily' }),
    field('Evaluator', { name: 'evaluatorKind', as: 'select', options: EVALUATORS, value: kind ?? EVALUATORS[0], hint: 'What the quest counts.' }),
    field('Evaluator parameters (JSON)', { name: 'evaluatorParams', as: 'textarea', rows: 2, value: evaluatorParams ? JSON.stringify(evaluatorParams) : undefined, hint: 'An object, e.g. {"coinType": "0x2::sui::SUI"}; empty for none.' }),
    field('Target', { name: 'target', inputmode: 'numeric', pattern: '[0-9]+', required: !q, value: q?.target, hint: 'Progress needed: a count, base units for wagered, a level for vip_level.' }),
    field('Starts (UTC, optional)', { name: 'startAt', type: 'datetime-local', value: toUtcInput(q?.startAt) }),
    field('Ends (UTC, optional)', { name: 'endAt', type: 'datetime-local', value: toUtcInput(q?.endAt) }),
    field('Enabled', { name: 'enabled', type: 'checkbox', checked: q?.enabled ?? true }),
  ];
}

/** @type {import('./main.js').Section} */
export default {
  id: 'campaigns',
  title: 'Campaigns and quests',
  async render(view, { request }) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const detail = h('div', {});
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    /** @type {string | null} */
    let open = null;
    /** @type {any[]} */
    let campaigns = [];

    /** @param {() => Promise<unknown>} action @param {string} done */
    const act = async (action, done) => {
      show(alert);
      show(status);
      try {
        await action();
        show(status, done);
        await load();
      } catch (error) {
        show(alert, errorBox(refusal(error)));
        if (/** @type {any} */ (error)?.code === 'VERSION_CONFLICT') await load().catch(() => undefined);
      }
    };
    const path = (/** @type {string} */ slug) => `admin/campaigns/${encodeURIComponent(slug)}`;

    const load = async () => {
      campaigns = listOf(await request('GET', 'admin/campaigns'), 'campaigns', 'items');
      show(
        list,
        table({
          caption: 'Campaigns',
          rows: campaigns,
          columns: [
            { key: 'slug', label: 'Slug', format: (s) => h('code', {}, s) },
            { key: 'name', label: 'Name' },
            { key: 'type', label: 'Type' },
            { key: 'startAt', label: 'Starts', format: when },
            { key: 'endAt', label: 'Ends', format: when },
            { key: 'enabled', label: 'Enabled', format: (e) => (e === false ? 'no' : 'yes') },
            { key: 'quests', label: 'Quests', format: (q) => (Array.isArray(q) ? String(q.length) : '—') },
            { key: 'version', label: 'Version' },
          ],
          actions: (c) => button(open === c.slug ? 'Close' : 'Open', () => ((open = open === c.slug ? null : c.slug), renderDetail()), { 'aria-label': `${open === c.slug ? 'Close' : 'Open'} campaign ${c.slug}` }),
          empty: 'none yet.',
        }),
      );
      renderDetail();
    };

    const renderDetail = () => {
      const c = campaigns.find((x) => x.slug === open);
      if (!c) return show(detail);
      const quests = Array.isArray(c.quests) ? c.quests : [];
      /** @type {string | null} */
      let editing = null;
      const questEditor = h('div', {});
      const editQuest = (/** @type {any} */ q) => {
        editing = editing === q.key ? null : q.key;
        show(
          questEditor,
          editing
            ? [
                h('h4', {}, `Edit quest ${q.key}`),
                form({
                  label: `Edit quest ${q.key}`,
                  submit: 'Save quest',
                  fields: questFields(q),
                  onSubmit: async (v) => {
                    await act(() => request('PATCH', `${path(c.slug)}/quests/${encodeURIComponent(q.key)}`, { body: { ...questBody(v), version: q.version } }), `Saved quest ${q.key}.`);
                  },
                }),
              ]
            : null,
        );
      };
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Campaign ${c.slug}`, class: 'panel' },
          h('h3', {}, `Campaign ${c.slug}`),
          h(
            'div',
            { class: 'actions' },
            button(c.enabled === false ? 'Enable campaign' : 'Disable campaign', () =>
              act(() => request('PATCH', path(c.slug), { body: { enabled: c.enabled === false, version: c.version } }), `${c.enabled === false ? 'Enabled' : 'Disabled'} campaign ${c.slug}.`),
            ),
          ),
          h('details', {}, h('summary', {}, 'Edit campaign'), form({
            label: `Edit campaign ${c.slug}`,
            submit: 'Save campaign',
            fields: campaignFields(c),
            onSubmit: async (v) => {
              await act(() => request('PATCH', path(c.slug), { body: { ...campaignBody(v), version: c.version } }), `Saved campaign ${c.slug}.`);
            },
          })),
          table({
            caption: `Quests of ${c.slug}`,
            rows: quests,
            columns: [
              { key: 'key', label: 'Key', format: (k) => h('code', {}, k) },
              { key: 'title', label: 'Title' },
              { key: 'timePeriod', label: 'Period' },
              { key: 'evaluator', label: 'Evaluator', format: (e) => h('code', {}, e ? JSON.stringify(e) : '—') },
              { key: 'target', label: 'Target' },
              { key: 'xpReward', label: 'XP' },
              { key: 'enabled', label: 'Enabled', format: (e) => (e === false ? 'no' : 'yes') },
              { key: 'version', label: 'Version' },
            ],
            actions: (q) => [
              button('Edit', () => editQuest(q), { 'aria-label': `Edit quest ${q.key}` }),
              button(q.enabled === false ? 'Enable' : 'Disable', () =>
                act(
                  () => request('PATCH', `${path(c.slug)}/quests/${encodeURIComponent(q.key)}`, { body: { enabled: q.enabled === false, version: q.version } }),
                  `${q.enabled === false ? 'Enabled' : 'Disabled'} quest ${q.key}.`,
                ), { 'aria-label': `${q.enabled === false ? 'Enable' : 'Disable'} quest ${q.key}` }),
            ],
            empty: 'none yet.',
          }),
          questEditor,
          h('h4', {}, `Add a quest to ${c.slug}`),
          form({
            label: `Add a quest to ${c.slug}`,
            submit: 'Add quest',
            fields: questFields(undefined),
            onSubmit: async (v, formEl) => {
              await request('POST', `${path(c.slug)}/quests`, { body: questBody(v) });
              formEl.reset();
              await load();
              show(status, `Added quest ${v.key} to ${c.slug}.`);
            },
          }),
        ),
      );
    };

    show(
      view,
      list,
      alert,
      status,
      detail,
      h('h3', {}, 'Create a campaign'),
      form({
        label: 'Create a campaign',
        submit: 'Create campaign',
        fields: campaignFields(undefined),
        onSubmit: async (v, formEl) => {
          const created = await request('POST', 'admin/campaigns', { body: campaignBody(v) });
          formEl.reset();
          open = created?.slug ?? v.slug;
          await load();
          return `Created campaign ${open}.`;
        },
      }),
    );
    await load().catch((error) => show(list, errorBox(error)));
  },
};
