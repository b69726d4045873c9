// Campaigns and their quests: create, edit (only the changed fields, with the version read, so a
// stale edit is refused with VERSION_CONFLICT), enable and disable.
import { button, checkboxes, errorBox, field, form, h, listOf, show, table, toUtcInput, utcInput, when } from './ui.js';

const PERIODS = ['daily', 'weekly', 'once'];
const MODES = ['indexed', 'live'];
/** The evaluator kinds of the quest registry (the service judges kind and parameters: an unknown one is refused with its message). */
const EVALUATORS = ['bets_placed', 'bets_won', 'wagered', 'daily_streak_claims', 'vip_level', 'referrals', 'login_streak'];

/** @param {string | undefined} text */
function params(text) {
  if (!text) return {};
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('Evaluator parameters: write a JSON object such as {"coinType": "0x2::sui::SUI"}, or leave it empty.');
  return parsed;
}

/** A time as the API writes it, for comparing. @param {unknown} v */
const iso = (v) => (typeof v === 'string' && v ? new Date(v).toISOString() : null);
/** @param {unknown} a @param {unknown} b */
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A campaign form's fields as the API takes them (empty texts: null). @param {Record<string, any>} v */
const campaignValues = (v) => ({
  type: v.type,
  name: v.name ?? null,
  title: v.title ?? null,
  description: v.description ?? null,
  copyText: v.copyText ?? null,
  startAt: utcInput(v.startAt),
  endAt: utcInput(v.endAt),
  managesClaims: v.managesClaims,
  enabled: v.enabled,
});

/** A quest form's fields as the API takes them. @param {Record<string, any>} v */
const questValues = (v) => ({
  title: v.title,
  description: v.description ?? '',
  xpReward: v.xpReward,
  timePeriod: v.timePeriod,
  modes: v.modes,
  evaluator: { kind: v.evaluatorKind, ...params(v.evaluatorParams) },
  target: v.target,
  enabled: v.enabled,
  performanceDaily: v.performanceDaily,
  startAt: utcInput(v.startAt) ?? null,
  endAt: utcInput(v.endAt) ?? null,
});

/** A new row: the fields given. @param {Record<string, unknown>} values */
const created = (values) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null));

/**
 * An edit: the fields that differ from the row as read, and its version.
 * @param {Record<string, unknown>} values
 * @param {Record<string, any>} row
 */
function edited(values, row) {
  /** @type {Record<string, unknown>} */
  const changes = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const was = k.endsWith('At') ? iso(row[k]) : k === 'modes' ? [...(row[k] ?? [])].sort() : row[k] ?? null;
    const now = k === 'modes' && Array.isArray(v) ? [...v].sort() : v;
    if (!same(was, now)) changes[k] = v;
  }
  if (Object.keys(changes).length === 0) throw new Error('Nothing changed.');
  return { ...changes, version: row.version };
}

/** A stale edit: say what happens next. @param {any} error */
const refusal = (error) =>
  error?.code === 'VERSION_CONFLICT'
    ? { code: error.code, details: error.details, message: `${error.message} Someone changed it after you loaded it: the list is reloaded, check it and edit again.` }
    : error;

/** @param {any} c campaign (or undefined for a new one) */
function campaignFields(c) {
  return [
    c ? null : field('Slug', { name: 'slug', required: true, pattern: '[a-z0-9][a-z0-9_\\-]*', hint: 'Lowercase letters, digits, dashes and underscores; the campaign’s address, not changed later.' }),
    field('Type', { name: 'type', required: true, value: c?.type, hint: 'e.g. platform, partner.' }),
    field('Name', { name: 'name', value: c?.name }),
    field('Title', { name: 'title', value: c?.title }),
    field('Description', { name: 'description', as: 'textarea', rows: 2, value: c?.description }),
    field('Copy text', { name: 'copyText', as: 'textarea', rows: 2, value: c?.copyText }),
    field('Starts (UTC)', { name: 'startAt', type: 'datetime-local', required: true, value: toUtcInput(c?.startAt) }),
    field('Ends (UTC)', { name: 'endAt', type: 'datetime-local', required: true, value: toUtcInput(c?.endAt), hint: 'Exclusive; after the start.' }),
    field('The partner manages claims (statuses only here)', { name: 'managesClaims', type: 'checkbox', checked: c?.managesClaims ?? false }),
    field('Enabled', { name: 'enabled', type: 'checkbox', checked: c?.enabled ?? true }),
  ];
}

/** @param {any} q quest (or undefined for a new one) */
function questFields(q) {
  const { kind, ...rest } = q?.evaluator ?? {};
  const frozen = q?.hasClaims ? ' Claimed already: it can no longer change.' : '';
  return [
    q ? null : field('Quest key (optional)', { name: 'key', pattern: '[a-z0-9][a-z0-9\\-]*', hint: 'Lowercase letters, digits and dashes; unique in the campaign. Empty: made from the title.' }),
    field('Title', { name: 'title', required: true, value: q?.title }),
    field('Description', { name: 'description', as: 'textarea', rows: 2, value: q?.description }),
    field('XP reward', { name: 'xpReward', type: 'number', min: 1, step: 1, required: true, value: q?.xpReward }),
    field('Period', { name: 'timePeriod', as: 'select', options: PERIODS, value: q?.timePeriod ?? 'daily', hint: `Days start 00:00 UTC, weeks Monday 00:00 UTC.${frozen}` }),
    field('Evaluator', { name: 'evaluatorKind', as: 'select', options: EVALUATORS, value: kind ?? EVALUATORS[0], hint: `What the quest counts.${frozen}` }),
    field('Evaluator parameters (JSON)', { name: 'evaluatorParams', as: 'textarea', rows: 2, value: Object.keys(rest).length ? JSON.stringify(rest) : undefined, hint: 'An object, e.g. {"coinType": "0x2::sui::SUI"}; empty for none.' }),
    field('Target', { name: 'target', inputmode: 'numeric', pattern: '[1-9][0-9]*', required: true, value: q?.target, hint: 'Progress needed: a count, base units of the coin for wagered, a level for vip_level.' }),
    checkboxes('Status modes', 'modes', MODES, q?.modes ?? MODES),
    field('Starts (UTC, optional)', { name: 'startAt', type: 'datetime-local', value: toUtcInput(q?.startAt), hint: 'Empty: the campaign’s start.' }),
    field('Ends (UTC, optional)', { name: 'endAt', type: 'datetime-local', value: toUtcInput(q?.endAt), hint: 'Empty: the campaign’s end.' }),
    field('The campaign’s daily performance quest', { name: 'performanceDaily', type: 'checkbox', checked: q?.performanceDaily ?? false }),
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
        if (/** @type {any} */ (error)?.code === 'VERSION_CONFLICT') await load().catch(() => undefined);
        show(alert, errorBox(refusal(error)));
        alert.scrollIntoView({ block: 'nearest' });
      }
    };
    const path = (/** @type {string} */ slug) => `admin/campaigns/${encodeURIComponent(slug)}`;
    const questPath = (/** @type {string} */ slug, /** @type {string} */ key) => `${path(slug)}/quests/${encodeURIComponent(key)}`;

    const load = async () => {
      campaigns = listOf(await request('GET', 'admin/campaigns'), 'campaigns');
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
            { key: 'lifecycle', label: 'State' },
            { key: 'quests', label: 'Quests', format: (q) => (Array.isArray(q) ? String(q.length) : '—') },
            { key: 'version', label: 'Version' },
          ],
          actions: (c) => button(open === c.slug ? 'Close' : 'Open', () => ((open = open === c.slug ? null : c.slug), load().catch((error) => show(list, errorBox(error)))), { 'aria-label': `${open === c.slug ? 'Close' : 'Open'} campaign ${c.slug}` }),
          empty: 'none yet.',
        }),
      );
      renderDetail();
    };

    const renderDetail = () => {
      const c = campaigns.find((x) => x.slug === open);
      if (!c) return show(detail);
      const quests = Array.isArray(c.quests) ? c.quests : [];
      const questEditor = h('div', {});
      const editQuest = (/** @type {any} */ q) =>
        show(
          questEditor,
          h(
            'section',
            { 'aria-label': `Edit quest ${q.key}`, class: 'panel' },
            h('h4', {}, `Edit quest ${q.key} (version ${q.version})`),
            form({
              label: `Edit quest ${q.key}`,
              submit: 'Save quest',
              fields: questFields(q),
              onSubmit: async (v) => act(() => request('PATCH', questPath(c.slug, q.key), { body: edited(questValues(v), q) }), `Saved quest ${q.key}.`),
            }),
            button('Close the editor', () => show(questEditor)),
          ),
        );
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Campaign ${c.slug}`, class: 'panel' },
          h('h3', {}, `Campaign ${c.slug}`),
          h(
            'div',
            { class: 'actions' },
            button(c.enabled ? 'Disable campaign' : 'Enable campaign', () =>
              act(() => request('PATCH', path(c.slug), { body: { enabled: !c.enabled, version: c.version } }), `${c.enabled ? 'Disabled' : 'Enabled'} campaign ${c.slug}.`),
            ),
          ),
          h(
            'details',
            {},
            h('summary', {}, `Edit campaign ${c.slug} (version ${c.version})`),
            form({
              label: `Edit campaign ${c.slug}`,
              submit: 'Save campaign',
              fields: campaignFields(c),
              onSubmit: async (v) => act(() => request('PATCH', path(c.slug), { body: edited(campaignValues(v), c) }), `Saved campaign ${c.slug}.`),
            }),
          ),
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
              { key: 'lifecycle', label: 'State' },
              { key: 'hasClaims', label: 'Claimed', format: (x) => (x ? 'yes' : 'no') },
              { key: 'version', label: 'Version' },
            ],
            actions: (q) => [
              button('Edit', () => editQuest(q), { 'aria-label': `Edit quest ${q.key}` }),
              button(
                q.enabled ? 'Disable' : 'Enable',
                () => act(() => request('PATCH', questPath(c.slug, q.key), { body: { enabled: !q.enabled, version: q.version } }), `${q.enabled ? 'Disabled' : 'Enabled'} quest ${q.key}.`),
                { 'aria-label': `${q.enabled ? 'Disable' : 'Enable'} quest ${q.key}` },
              ),
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
              const quest = await request('POST', `${path(c.slug)}/quests`, { body: created({ key: v.key, ...questValues(v) }) });
              formEl.reset();
              await load();
              show(status, `Added quest ${quest.key} to ${c.slug}.`);
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
          const campaign = await request('POST', 'admin/campaigns', { body: created({ slug: v.slug, ...campaignValues(v) }) });
          formEl.reset();
          open = campaign.slug;
          await load();
          return `Created campaign ${campaign.slug}.`;
        },
      }),
    );
    await load().catch((error) => show(list, errorBox(error)));
  },
};
