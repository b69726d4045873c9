import { z } from 'zod';
import { named } from '../model-names';

/** A project (gift campaign) name: lower-case letters, digits, `-` and `_`. */
export const projectName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, { error: 'must be 1–64 of a-z, 0-9, - and _, starting with a letter or digit' });

export const createProjectInput = z.strictObject({
  name: projectName,
  title: z.string().trim().min(1).max(200).optional().describe('Shown to operators'),
});

const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a zone (2026-12-01T00:00:00Z)' });

const windowInput = z
  .strictObject({
    startsAt: instant,
    endsAt: instant,
    dailyQuota: z.number().int().min(0).max(1_000_000).describe('Gifts the project hands out per UTC day while this window is open'),
    enabled: z.boolean().default(true).describe('false: kept, but never open'),
  })
  .refine((w) => Date.parse(w.endsAt) > Date.parse(w.startsAt), { error: 'endsAt must be after startsAt', path: ['endsAt'] });

/** A project's whole list of delivery windows (it replaces the previous list); enabled windows may not overlap. */
export const setWindowsInput = z
  .strictObject({ windows: z.array(windowInput).max(100) })
  .superRefine(({ windows }, ctx) => {
    const enabled = windows.map((w, i) => ({ ...w, i, from: Date.parse(w.startsAt), to: Date.parse(w.endsAt) })).filter((w) => w.enabled);
    enabled.sort((a, b) => a.from - b.from);
    for (let k = 1; k < enabled.length; k++) {
      if (enabled[k]!.from < enabled[k - 1]!.to) ctx.addIssue({ code: 'custom', path: ['windows', enabled[k]!.i, 'startsAt'], message: `overlaps window ${enabled[k - 1]!.i}: enabled windows may not overlap` });
    }
  });

/** The `gifts:load` input: URLs to add to a project's stash (one already stashed, in any project, is skipped). */
export const stashInput = z.strictObject({ urls: z.array(z.string()).min(1).max(10_000).describe('Absolute http(s) URLs, at most 10,000 a request') });

const counter = named('GiftProjectQuota', z.object({ limit: z.number().int(), delivered: z.number().int(), remaining: z.number().int() }));
/** Written as GraphQL's DateTimeISO (the summaries carry Dates). */
const dateTime = named('DateTimeISO', z.iso.datetime());

export const giftWindowModel = z.object({
  id: z.string(),
  startsAt: dateTime,
  endsAt: dateTime,
  dailyQuota: z.number().int(),
  enabled: z.boolean(),
  open: z.boolean().describe('Open now (enabled and now within it)'),
  delivered: z.number().int().describe('Gifts handed out while it was open'),
});

export const giftProjectModel = z.object({
  name: z.string(),
  title: z.string().nullable(),
  createdAt: dateTime,
  stash: named('GiftStashCount', z.object({ total: z.number().int(), delivered: z.number().int(), left: z.number().int().describe('URLs not yet handed out') })),
  today: counter.describe("Today's project quota: the open window's dailyQuota (0 outside a window)"),
  windows: z.array(giftWindowModel),
}).describe('A gift project as operators run it');

export type GiftWindowSummary = z.output<typeof giftWindowModel>;
export type GiftProjectSummary = Omit<z.output<typeof giftProjectModel>, 'createdAt' | 'windows'> & { createdAt: Date; windows: Array<Omit<GiftWindowSummary, 'startsAt' | 'endsAt'> & { startsAt: Date; endsAt: Date }> };

/** What a stash load did: URLs added, URLs skipped (already stashed in any project, or repeated), and the project after it. */
export const stashLoadModel = z.object({ added: z.number().int(), skipped: z.number().int().describe('Already stashed (any project) or repeated'), project: giftProjectModel });

// The GraphQL types these models become (src/graphql/zod-types.ts).
named('GiftWindowInput', windowInput);
named('GiftProjectWindow', giftWindowModel);
named('GiftProject', giftProjectModel);
named('GiftStashLoad', stashLoadModel);

// ───────────── players: a gift URL and what is left today (/api/gift/*) ─────────────

/** One gift URL handed out. */
export const giftDeliveryModel = named('GiftDelivery', z.object({ project: z.string(), url: z.string(), deliveredAt: z.iso.datetime() }));
export type GiftDelivery = z.infer<typeof giftDeliveryModel>;

const giftCounter = named('GiftCounter', z.object({ limit: z.int(), delivered: z.int(), remaining: z.int() }));
export type GiftCounter = z.infer<typeof giftCounter>;

/** Today's remaining gifts of a project and of the calling IP. */
export const giftRemainingModel = named(
  'GiftRemaining',
  z.object({
    project: z.string(),
    window: named('GiftWindow', z.object({ startsAt: z.iso.datetime(), endsAt: z.iso.datetime() }))
      .nullable()
      .describe('The delivery window open now; null when none is (no gift is handed out then)'),
    projectQuota: giftCounter.describe("Today's project quota: the open window's dailyQuota (0 outside a window)"),
    ipQuota: giftCounter.describe("The calling IP's quota for this project today"),
  }),
);
export type GiftRemaining = z.infer<typeof giftRemainingModel>;
