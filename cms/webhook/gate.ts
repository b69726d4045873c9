import type { Payload } from 'payload'
import { linkUploads } from '../media/partner-images'
import type { EditorialIssue } from '../editorial/index'
import { fail } from './parse'
import { partnerPostData } from './post-data'
import type { ArticleDelivery, DeliveryFailure } from './types'

const reasons = (errors: readonly EditorialIssue[]) => errors.map((e) => ({ field: e.field, message: e.message, rule: e.code }))

/**
 * A partner article the editorial gate refuses for what the article itself is (form, length,
 * filler, claims, dates): not published and nothing stored; the partner has the article and
 * every reason, and sends it again corrected.
 */
export function refusedByGate(errors: readonly EditorialIssue[]): DeliveryFailure {
  return fail('EDITORIAL_REJECTED', 'The article fails the editorial checks and was not published; nothing was stored: correct it and send it again.', reasons(errors))
}

/**
 * A partner article the editorial gate refuses for what is already published (a repeated intro:
 * the partner cannot see the other post, an editor decides) is not published and not lost: it is kept as a
 * draft post (a new one, or a new draft version of the partner's post with that slug, whose
 * published version stays live) carrying the gate's reasons in `editorialWarnings`, for an editor
 * to fix and publish in the admin. No delivery claim is recorded, so the partner may send a
 * corrected article under the same delivery id; images are not fetched for a draft (the
 * `image_url` is kept in the post's external image field).
 */
export async function holdForEditor(payload: Payload, a: ArticleDelivery, content: unknown, errors: readonly EditorialIssue[]): Promise<DeliveryFailure> {
  const existing = await payload.find({ collection: 'blog_posts', where: { slug: { equals: a.slug } }, limit: 1, depth: 0, draft: true })
  const current = existing.docs[0]
  if (current && current.source !== 'contentpartner') return fail('SLUG_TAKEN', `The slug "${a.slug}" belongs to an editor-written post.`)
  // The inline images' placeholders (markImages) are left out of the draft.
  linkUploads(content, () => undefined)
  const data = { ...partnerPostData(a, content, current), _status: 'draft' as const, imageUrl: a.imageUrl ?? null }
  const context = { source: 'contentpartner', disableRevalidate: true }
  const post = current
    ? await payload.update({ collection: 'blog_posts', id: current.id, data: data as never, draft: true, context })
    : await payload.create({ collection: 'blog_posts', data: data as never, draft: true, context })
  const refused = fail(
    'EDITORIAL_REJECTED',
    `The article fails the editorial checks and was not published; it is kept as a draft (post ${post.id}) for an editor to fix and publish, or for a corrected delivery.`,
    reasons(errors),
  )
  return { ...refused, draft: { postId: String(post.id), slug: a.slug } }
}
