import { readFileSync } from 'node:fs'

/** The local addresses TCP sockets listen on at `port` (from /proc/net/tcp and tcp6). */
export function listeningAddresses(port: number): string[] {
  const out: string[] = []
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state] = row.trim().split(/\s+/)
      const [hex, portHex] = local!.split(':')
      // 0A: LISTEN
      if (state !== '0A' || parseInt(portHex!, 16) !== port) continue
      out.push(hex!.length === 8 ? ipv4(hex!) : hex === '0'.repeat(32) ? '::' : `ipv6:${hex}`)
    }
  }
  return out
}

/** /proc/net/tcp writes an IPv4 address as one little-endian 32-bit hex number. */
const ipv4 = (hex: string): string => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.')
