/** The blog database runs real transactions, which partner deliveries rely on (claim + post together). */
import { createLocalReq, initTransaction, killTransaction, type Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPayload } from './blog-helpers'

let payload: Payload
beforeAll(async () => {
  payload = await openPayload('mainnet')
})
afterAll(async () => {
  await (await import('../../cms/lifecycle')).closeBlogPayload(payload)
})

describe('blog database transactions', () => {
  it('rolls back a delivery claim written inside an aborted transaction', async () => {
    const req = await createLocalReq({}, payload)
    await initTransaction(req)
    expect(req.transactionID).toBeDefined()
    await payload.create({
      collection: 'blog_webhook_deliveries',
      data: { deliveryId: 'rolled-back-claim', event: 'article.published', slug: 'rolled-back', receivedAt: new Date().toISOString() },
      req,
    })
    await killTransaction(req)
    const left = await payload.count({ collection: 'blog_webhook_deliveries', where: { deliveryId: { equals: 'rolled-back-claim' } } })
    expect(left.totalDocs).toBe(0)
  })
})
