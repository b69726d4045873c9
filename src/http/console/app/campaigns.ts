// Campaigns and their quests: create, edit (only the changed fields, with the version read, so a
// stale edit is refused with VERSION_CONFLICT), enable and disable. The periods, modes and
// evaluator kinds offered are the API's enums (src/generated/openapi.ts).
import {
  pathsApiAdminCampaignsGetResponses200ContentApplicationJsonCampaignsQuestsEvaluatorKindValues as EVALUATORS,
  pathsApiAdminCampaignsSlugQuestsPostRequestBodyContentApplicationJsonModesValues as MODES,
  pathsApiAdminCampaignsSlugQuestsPostRequestBodyContentApplicationJsonTimePeriodValues as PERIODS,
} from '../../../generated/openapi';
import { ApiError, type Answer, type Call, type Input, type Section } from './api';
import { bodyFields, bodyOf, bodyValues, type Presentation } from './body-form';
import { button, checkboxes, code, errorBox, field, form, h, options, show, table, toUtcInput, utcInput, type Values, when } from './ui';

type Campaign = Answer<'/api/admin/campaigns', 'get'>['campaigns'][number];
type Quest = Campaign['quests'][number];
type QuestInput = Input<'/api/admin/campaigns/{slug}/quests', 'post'>;

/** The evaluator's parameters as written: a JSON object, or nothing. */
function params(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('Evaluator parameters: write a JSON object such as {"coinType": "0x2::sui::SUI"}, or leave it empty.');
  return { ...parsed };
}

/** A time as the API writes it, for comparing. */
const iso = (v: unknown) => (typeof v === 'string' && v ? new Date(v).toISOString() : null);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A campaign's body (the new one's; an edit's is the same without the slug, which cannot change): its form follows the API document. */
const CAMPAIGN_BODY = bodyOf('POST /api/admin/campaigns');
const CAMPAIGN_EDIT = CAMPAIGN_BODY.filter((f) => f.name !== 'slug');
const CAMPAIGN_PRESENTATION: Record<string, Presentation> = {
  slug: { hint: 'Lowercase letters, digits, dashes and underscores; the campaign’s address, not changed later.' },
  type: { hint: 'e.g. platform, partner.' },
  startAt: { label: 'Starts (UTC)' },
  endAt: { label: 'Ends (UTC)', hint: 'Exclusive; after the start.' },
  managesClaims: { label: 'The partner manages claims (statuses only here)' },
};
type CampaignInput = Input<'/api/admin/campaigns', 'post'>;

/** A campaign form's fields as the API takes them (empty texts: null). */
const campaignValues = (v: Values) => bodyValues(CAMPAIGN_EDIT, v) as Omit<CampaignInput, 'slug'>;

/** A quest form's fields as the API takes them. */
const questValues = (v: Values) => ({
  title: v.required('title'),
  description: v.text('description') ?? '',
  xpReward: Number(v.required('xpReward')),
  timePeriod: v.one('timePeriod', PERIODS),
  modes: v.all('modes', MODES),
  // The parameters as the operator wrote them: the service judges kind and parameters, and refuses an unknown one with its message.
  evaluator: { kind: v.one('evaluatorKind', EVALUATORS), ...params(v.text('evaluatorParams')) } as QuestInput['evaluator'],
  target: v.required('target'),
  enabled: v.checked('enabled'),
  performanceDaily: v.checked('performanceDaily'),
  startAt: utcInput(v.text('startAt')) ?? null,
  endAt: utcInput(v.text('endAt')) ?? null,
});

/** An edit: the fields that differ from the row as read, and its version. */
function edited<T extends Record<string, unknown>>(values: T, row: Record<string, unknown> & { version: number }): Partial<T> & { version: number } {
  const changes: Partial<T> = {};
  for (const k of Object.keys(values) as (keyof T & string)[]) {
    const v = values[k];
    const was = k.endsWith('At') ? iso(row[k]) : k === 'modes' && Array.isArray(row[k]) ? [...row[k]].sort() : (row[k] ?? null);
    const now = k === 'modes' && Array.isArray(v) ? [...v].sort() : v;
    if (!same(was, now)) changes[k] = v;
  }
  if (Object.keys(changes).length === 0) throw new Error('Nothing changed.');
  return { ...changes, version: row.version };
}

/** A stale edit: say what happens next. */
const refusal = (error: unknown) =>
  error instanceof ApiError && error.is('VERSION_CONFLICT')
    ? new ApiError(error.status, { code: error.code, message: `${error.message} Someone changed it after you loaded it: the list is reloaded, check it and edit again.` })
    : error;

const area = (name: string, value?: string | null) => h('textarea', { name, rows: 2, value });
const time = (name: string, required: boolean, value?: string | null) => h('input', { name, type: 'datetime-local', required, value: toUtcInput(value) });
const check = (name: string, checked: boolean) => h('input', { name, type: 'checkbox', checked });

const campaignFields = (c?: Campaign) => bodyFields(c ? CAMPAIGN_EDIT : CAMPAIGN_BODY, c, CAMPAIGN_PRESENTATION);

function questFields(q?: Quest) {
  const { kind, ...rest } = q?.evaluator ?? { kind: EVALUATORS[0] };
  const frozen = q?.hasClaims ? ' Claimed already: it can no longer change.' : '';
  const keyHint = 'Lowercase letters, digits and dashes; unique in the campaign. Empty: made from the title.';
  return [
    q ? null : field('Quest key (optional)', h('input', { name: 'key', pattern: '[a-z0-9][a-z0-9\\-]*' }), keyHint),
    field('Title', h('input', { name: 'title', required: true, value: q?.title })),
    field('Description', area('description', q?.description)),
    field('XP reward', h('input', { name: 'xpReward', type: 'number', min: 1, step: 1, required: true, value: q?.xpReward })),
    field('Period', h('select', { name: 'timePeriod', value: q?.timePeriod ?? ('daily' satisfies Quest['timePeriod']) }, options(PERIODS)), `Days start 00:00 UTC, weeks Monday 00:00 UTC.${frozen}`),
    field('Evaluator', h('select', { name: 'evaluatorKind', value: kind }, options(EVALUATORS)), `What the quest counts.${frozen}`),
    field(
      'Evaluator parameters (JSON)',
      h('textarea', { name: 'evaluatorParams', rows: 2, value: Object.keys(rest).length ? JSON.stringify(rest) : undefined }),
      'An object, e.g. {"coinType": "0x2::sui::SUI"}; empty for none.',
    ),
    field('Target', h('input', { name: 'target', inputmode: 'numeric', pattern: '[1-9][0-9]*', required: true, value: q?.target }), 'Progress needed: a count, base units of the coin for wagered, a level for vip_level.'),
    checkboxes('Status modes', 'modes', MODES, q?.modes ?? MODES),
    field('Starts (UTC, optional)', time('startAt', false, q?.startAt), 'Empty: the campaign’s start.'),
    field('Ends (UTC, optional)', time('endAt', false, q?.endAt), 'Empty: the campaign’s end.'),
    field('The campaign’s daily performance quest', check('performanceDaily', q?.performanceDaily ?? false)),
    field('Enabled', check('enabled', q?.enabled ?? true)),
  ];
}

/** The calls of one campaign and its quests. */
const campaignCalls = (call: Call, slug: string) => {
  const path = { slug };
  return {
    update: (body: Input<'/api/admin/campaigns/{slug}', 'patch'>) => call((api) => api.PATCH('/api/admin/campaigns/{slug}', { params: { path }, body })),
    addQuest: (body: QuestInput) => call((api) => api.POST('/api/admin/campaigns/{slug}/quests', { params: { path }, body })),
    updateQuest: (questKey: string, body: Input<'/api/admin/campaigns/{slug}/quests/{questKey}', 'patch'>) =>
      call((api) => api.PATCH('/api/admin/campaigns/{slug}/quests/{questKey}', { params: { path: { slug, questKey } }, body })),
  };
};

export default {
  id: 'campaigns',
  title: 'Campaigns and quests',
  async render(view, call) {
    const list = h('div', {}, h('p', {}, 'Loading…'));
    const detail = h('div', {});
    const alert = h('div', { class: 'alert-slot' });
    const status = h('p', { class: 'status', role: 'status' });
    let open: string | null = null;
    let campaigns: Campaign[] = [];

    const act = async (action: () => Promise<unknown>, done: string) => {
      show(alert);
      show(status);
      try {
        await action();
        show(status, done);
        await load();
      } catch (error) {
        if (error instanceof ApiError && error.is('VERSION_CONFLICT')) await load().catch(() => undefined);
        show(alert, errorBox(refusal(error)));
        alert.scrollIntoView({ block: 'nearest' });
      }
    };

    const load = async () => {
      ({ campaigns } = await call((api) => api.GET('/api/admin/campaigns')));
      const toggle = (c: Campaign) => {
        open = open === c.slug ? null : c.slug;
        load().catch((error: unknown) => show(list, errorBox(error)));
      };
      show(
        list,
        table({
          caption: 'Campaigns',
          rows: campaigns,
          columns: [
            ['Slug', (c) => code(c.slug)],
            ['Name', (c) => c.name],
            ['Type', (c) => c.type],
            ['Starts', (c) => when(c.startAt)],
            ['Ends', (c) => when(c.endAt)],
            ['State', (c) => c.lifecycle],
            ['Quests', (c) => String(c.quests.length)],
            ['Version', (c) => c.version],
          ],
          actions: (c) => {
            const verb = open === c.slug ? 'Close' : 'Open';
            return button(verb, () => toggle(c), { 'aria-label': `${verb} campaign ${c.slug}` });
          },
          empty: 'none yet.',
        }),
      );
      renderDetail();
    };

    const renderDetail = () => {
      const c = campaigns.find((x) => x.slug === open);
      if (!c) return show(detail);
      const calls = campaignCalls(call, c.slug);
      const questEditor = h('div', {});
      const editQuest = (q: Quest) =>
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
              onSubmit: async (v) => act(() => calls.updateQuest(q.key, edited(questValues(v), q)), `Saved quest ${q.key}.`),
            }),
            button('Close the editor', () => show(questEditor)),
          ),
        );
      const questActions = (q: Quest) => {
        const verb = q.enabled ? 'Disable' : 'Enable';
        return [
          button('Edit', () => editQuest(q), { 'aria-label': `Edit quest ${q.key}` }),
          button(verb, () => act(() => calls.updateQuest(q.key, { enabled: !q.enabled, version: q.version }), `${verb}d quest ${q.key}.`), { 'aria-label': `${verb} quest ${q.key}` }),
        ];
      };
      const verb = c.enabled ? 'Disable' : 'Enable';
      show(
        detail,
        h(
          'section',
          { 'aria-label': `Campaign ${c.slug}`, class: 'panel' },
          h('h3', {}, `Campaign ${c.slug}`),
          h('div', { class: 'actions' }, button(`${verb} campaign`, () => act(() => calls.update({ enabled: !c.enabled, version: c.version }), `${verb}d campaign ${c.slug}.`))),
          h(
            'details',
            {},
            h('summary', {}, `Edit campaign ${c.slug} (version ${c.version})`),
            form({
              label: `Edit campaign ${c.slug}`,
              submit: 'Save campaign',
              fields: campaignFields(c),
              onSubmit: async (v) => act(() => calls.update(edited(campaignValues(v), c)), `Saved campaign ${c.slug}.`),
            }),
          ),
          table({
            caption: `Quests of ${c.slug}`,
            rows: c.quests,
            columns: [
              ['Key', (q) => code(q.key)],
              ['Title', (q) => q.title],
              ['Period', (q) => q.timePeriod],
              ['Evaluator', (q) => code(JSON.stringify(q.evaluator))],
              ['Target', (q) => q.target],
              ['XP', (q) => q.xpReward],
              ['State', (q) => q.lifecycle],
              ['Claimed', (q) => (q.hasClaims ? 'yes' : 'no')],
              ['Version', (q) => q.version],
            ],
            actions: questActions,
            empty: 'none yet.',
          }),
          questEditor,
          h('h4', {}, `Add a quest to ${c.slug}`),
          form({
            label: `Add a quest to ${c.slug}`,
            submit: 'Add quest',
            fields: questFields(),
            onSubmit: async (v, formEl) => {
              const quest = await calls.addQuest({ key: v.text('key'), ...questValues(v) });
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
        fields: campaignFields(),
        onSubmit: async (v, formEl) => {
          const campaign = await call((api) => api.POST('/api/admin/campaigns', { body: bodyValues(CAMPAIGN_BODY, v) as CampaignInput }));
          formEl.reset();
          open = campaign.slug;
          await load();
          return `Created campaign ${campaign.slug}.`;
        },
      }),
    );
    await load().catch((error: unknown) => show(list, errorBox(error)));
  },
} satisfies Section;
