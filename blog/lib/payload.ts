import config from '@payload-config'
import { getPayload, type Payload } from 'payload'

/** The Payload instance of this server (cached by Payload across calls). */
export function payload(): Promise<Payload> {
  return getPayload({ config })
}
