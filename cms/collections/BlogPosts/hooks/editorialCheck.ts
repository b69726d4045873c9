import { ValidationError, type CollectionBeforeChangeHook } from 'payload'
import { blocking, checkEditorial, formatIssues, introOf } from '../../../editorial/index'
import { otherPublishedIntros } from '../intros'
import { lexicalPlainText } from './plainText'

/**
 * Runs the editorial contract. Publishing with a blocking failure is refused with a
 * validation error; everything else is stored in the read-only `editorialWarnings` field.
 */
export const editorialCheck: CollectionBeforeChangeHook = async ({ data, originalDoc, req, context }) => {
  const bodyText = lexicalPlainText(data.content)
  data.introFingerprint = introOf(bodyText)
  const otherIntros = await otherPublishedIntros(req.payload, { id: originalDoc?.id }, req)
  const issues = checkEditorial(
    { ...data, bodyText, tags: data.tags as string[] | undefined },
    { otherIntros, source: context.source === 'contentpartner' ? 'contentpartner' : 'editor' },
  )
  const errors = blocking(issues)
  if (data._status === 'published' && errors.length > 0) {
    throw new ValidationError({
      collection: 'blog_posts',
      errors: errors.map((e) => ({ path: e.field, message: `Cannot publish: ${e.message}` })),
      req,
    })
  }
  data.editorialWarnings = formatIssues(issues)
  return data
}
