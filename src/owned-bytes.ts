/**
 * `text` as UTF-8 in memory of its own, for bytes that are kept (cached answers, a subscription's
 * envelope). `Buffer.from` serves small strings out of Node's shared 8 KiB pool, and a kept slice
 * keeps its whole slab alive: a few hundred kept bytes can cost 8 KiB each (issue 47's soak: the
 * API's RSS rose 25 MiB a minute while its 16 MiB answer cache filled with slices).
 */
export function ownedBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
