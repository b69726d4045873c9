import { RULES } from './rules'
import type { EditorialContext, EditorialInput, EditorialIssue } from './types'

export * from './types'
export { LIMITS } from './limits'
export { introOf, wordCount } from './text'

/** Contract fields an external partner cannot know; their gaps are warnings for partner deliveries. */
const PARTNER_SOFT_CODES = new Set([
  'internal_links_missing',
  'claim_ledger_missing',
  'search_intent_missing',
  'audience_missing',
  'platform_angle_missing',
])

/** Runs every editorial rule. Pure: the caller supplies the text and the other posts' intros. */
export function checkEditorial(input: EditorialInput, ctx: EditorialContext = {}): EditorialIssue[] {
  const issues = RULES.flatMap((rule) => rule(input, ctx))
  if (ctx.source !== 'contentpartner') return issues
  return issues.map((i) =>
    i.severity === 'error' && PARTNER_SOFT_CODES.has(i.code)
      ? { ...i, severity: 'warning' as const, message: `${i.message} (partner article: editor review needed)` }
      : i,
  )
}

/**
 * Blocking rules that compare the article with the other published posts, not the article alone:
 * a partner cannot see or settle them, so a partner article they refuse is kept for an editor.
 */
const EDITOR_DECIDES = new Set(['intro_repeated'])

/** Whether an editor, not the partner, settles these blocking issues (every one compares with other posts). */
export function editorDecides(errors: readonly EditorialIssue[]): boolean {
  return errors.length > 0 && errors.every((e) => EDITOR_DECIDES.has(e.code))
}

export function blocking(issues: readonly EditorialIssue[]): EditorialIssue[] {
  return issues.filter((i) => i.severity === 'error')
}

export function warnings(issues: readonly EditorialIssue[]): EditorialIssue[] {
  return issues.filter((i) => i.severity === 'warning')
}

/** One line per issue, as stored in the read-only `editorialWarnings` field. */
export function formatIssues(issues: readonly EditorialIssue[]): string {
  return issues.map((i) => `[${i.severity}] ${i.field}: ${i.message}`).join('\n')
}
