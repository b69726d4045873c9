import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { BlockList, isIP, type LookupFunction } from 'node:net'
import sharp from 'sharp'

export interface ImageFetchLimits {
  maxBytes: number
  timeoutMs: number
  /** Loopback, private, link-local and other non-public addresses (test fixtures only). */
  allowPrivateHosts: boolean
}

export interface FetchedImage {
  data: Buffer
  mimeType: string
  /** File extension matching the sniffed type. */
  ext: string
}

export type ImageFetchResult = { ok: true; image: FetchedImage } | { ok: false; reason: string }

/** Raster types a partner may send, by the format sharp reads from the bytes (SVG is refused: it can carry script). */
const SNIFFED: Record<string, { mimeType: string; ext: string }> = {
  png: { mimeType: 'image/png', ext: 'png' },
  jpeg: { mimeType: 'image/jpeg', ext: 'jpg' },
  webp: { mimeType: 'image/webp', ext: 'webp' },
  gif: { mimeType: 'image/gif', ext: 'gif' },
}
const MAX_REDIRECTS = 3

const NON_PUBLIC = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) NON_PUBLIC.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96]] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6')
}

function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined
  if (mapped) return isPublicAddress(mapped)
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** DNS lookup that refuses non-public answers, so the connection goes only to the address that was checked. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0)
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address))
      if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EBLOCKED' }), '', 0)
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable)
      callback(null, usable[0]!.address, usable[0]!.family)
    })
  }
}

class Refused extends Error {}

function get(url: URL, limits: ImageFetchLimits, signal: AbortSignal): Promise<{ status: number; location?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http
    const req = client.get(url, { signal, lookup: guardedLookup(limits.allowPrivateHosts), headers: { accept: 'image/*' } }, (res) => {
      const status = res.statusCode ?? 0
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume()
        return resolve({ status, location: res.headers.location, body: Buffer.alloc(0) })
      }
      if (status !== 200) {
        res.resume()
        return reject(new Refused(`answered HTTP ${status}`))
      }
      const declared = Number(res.headers['content-length'])
      if (declared > limits.maxBytes) {
        res.destroy()
        return reject(new Refused(`is ${declared} bytes, over the ${limits.maxBytes}-byte limit`))
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > limits.maxBytes) {
          res.destroy()
          reject(new Refused(`is over the ${limits.maxBytes}-byte limit`))
        } else chunks.push(chunk)
      })
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks) }))
      res.on('error', reject)
      res.on('close', () => {
        if (!res.complete) reject(new Error('connection closed before the image was complete'))
      })
    })
    req.on('error', reject)
  })
}

function checkTarget(url: URL, limits: ImageFetchLimits): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL'
  if (url.username || url.password) return 'carries credentials'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!limits.allowPrivateHosts && isIP(host) && !isPublicAddress(host)) return 'points at a non-public address'
  return undefined
}

/**
 * Downloads one partner image: http(s) only, public addresses only (unless allowed for tests),
 * at most `maxBytes`, within `timeoutMs` overall (redirects included, at most 3), and only
 * when the bytes are a PNG, JPEG, WebP or GIF that sharp can read, whatever the server's
 * Content-Type says. Never throws: a refusal comes back with the reason.
 */
export async function fetchImage(rawUrl: string, limits: ImageFetchLimits): Promise<ImageFetchResult> {
  const signal = AbortSignal.timeout(limits.timeoutMs)
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    return { ok: false, reason: 'is not a valid URL' }
  }
  try {
    for (let hop = 0; ; hop++) {
      const bad = checkTarget(url, limits)
      if (bad) return { ok: false, reason: bad }
      const res = await get(url, limits, signal)
      if (res.location === undefined) return sniff(res.body)
      if (hop >= MAX_REDIRECTS) return { ok: false, reason: `redirected more than ${MAX_REDIRECTS} times` }
      url = new URL(res.location, url)
    }
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message }
    if (signal.aborted) return { ok: false, reason: `did not arrive within ${limits.timeoutMs} ms` }
    const code = (err as NodeJS.ErrnoException).code
    return { ok: false, reason: code === 'EBLOCKED' ? 'resolves to a non-public address' : `could not be fetched (${code ?? (err as Error).message})` }
  }
}

async function sniff(data: Buffer): Promise<ImageFetchResult> {
  if (data.length === 0) return { ok: false, reason: 'is empty' }
  const format = await sharp(data)
    .metadata()
    .then((m) => m.format as string | undefined)
    .catch(() => undefined)
  const known = format ? SNIFFED[format] : undefined
  if (!known) return { ok: false, reason: `is not a PNG, JPEG, WebP or GIF image${format ? ` (found ${format})` : ''}` }
  return { ok: true, image: { data, ...known } }
}
