/**
 * Protobuf wire decoding of the two responses the gRPC source reads on every page: a
 * `ListEventsResponse` frame (straight into the event's fields, its `google.protobuf.Value` JSON
 * straight into plain JSON) and a `BatchGetTransactionsResponse` (digest and time only).
 * The SDK's generated types decode by reflection into oneof wrappers that are then converted
 * again: about a third of the indexer's CPU in a backfill. Field numbers are those of
 * `sui.rpc.v2` (ledger_service, event, query_options, executed_transaction) and
 * `google.protobuf` (struct, timestamp); unknown fields are skipped, repeated singular fields
 * merge as protobuf says (the last scalar wins, messages merge).
 */

/**
 * An Event's fields the indexer reads (the others are skipped), named as the sources' raw event
 * (./normalize.ts) so it is checked and normalized as it is; `timestampMs` is the source's to set
 * (events carry none on this transport).
 */
export interface WireEvent {
  txDigest: string | undefined;
  eventSeq: number | undefined;
  checkpoint: number | bigint | undefined;
  timestampMs: number | undefined;
  sender: string | undefined;
  type: string | undefined;
  /** `json` as plain JSON (`google.protobuf.Value` → its JSON form); undefined when absent. */
  json: unknown;
}

export interface ListEventsFrame {
  event?: WireEvent;
  /** `watermark.cursor`, when the frame has one. */
  watermarkCursor?: Uint8Array;
  /** `end.reason` (QueryEndReason), when the frame ends the stream. */
  endReason?: number;
}

export interface TransactionTime {
  digest?: string;
  /** ms since the epoch; undefined when the transaction came without a timestamp. */
  timestampMs?: number;
}

export class WireError extends Error {
  override readonly name = 'WireError';
}

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

/** A cursor over one encoded message; `end` bounds the message being read. */
class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  /** Unsigned varint as a number, exact up to 2^53 (tags, lengths, enums, u32 and most u64). */
  uint(end: number): number {
    const buf = this.buf;
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) throw new WireError('truncated varint');
      const byte = buf[this.pos++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new WireError('varint longer than 10 bytes');
  }

  /** u64: a number when exact, else a bigint. */
  uint64(end: number): number | bigint {
    const start = this.pos;
    const value = this.uint(end);
    if (value <= Number.MAX_SAFE_INTEGER) return value;
    let big = 0n;
    for (let i = this.pos - 1; i >= start; i--) big = (big << 7n) | BigInt(this.buf[i] & 0x7f);
    return BigInt.asUintN(64, big);
  }

  /** i64 / i32 (two's complement varint) as a number. */
  int(end: number): number {
    const value = this.uint64(end);
    return typeof value === 'bigint' ? Number(BigInt.asIntN(64, value)) : value;
  }

  /** End of the length-delimited field that starts here. */
  delimited(end: number): number {
    const length = this.uint(end);
    const stop = this.pos + length;
    if (stop > end) throw new WireError('length-delimited field runs past its message');
    return stop;
  }

  string(end: number): string {
    const stop = this.delimited(end);
    const text = this.buf.toString('utf8', this.pos, stop);
    this.pos = stop;
    return text;
  }

  /** A string that is often the same as the last one read through `memo` (one page's event type): that string again, not a copy. */
  memoString(end: number, memo: { bytes: Buffer; text: string }): string {
    const stop = this.delimited(end);
    const length = stop - this.pos;
    if (length !== memo.bytes.length || this.buf.compare(memo.bytes, 0, length, this.pos, stop) !== 0) {
      memo.bytes = Buffer.from(this.buf.subarray(this.pos, stop));
      memo.text = this.buf.toString('utf8', this.pos, stop);
    }
    this.pos = stop;
    return memo.text;
  }

  bytes(end: number): Uint8Array {
    const stop = this.delimited(end);
    const out = this.buf.subarray(this.pos, stop);
    this.pos = stop;
    return out;
  }

  double(end: number): number {
    if (this.pos + 8 > end) throw new WireError('truncated double');
    const value = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return value;
  }

  skip(wireType: number, end: number): void {
    switch (wireType) {
      case VARINT:
        this.uint(end);
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case BYTES:
        this.pos = this.delimited(end);
        return;
      case FIXED32:
        this.pos += 4;
        break;
      default:
        throw new WireError(`unsupported wire type ${wireType}`);
    }
    if (this.pos > end) throw new WireError('truncated fixed-width field');
  }
}

const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

/** `google.protobuf.Value` (fields 1 null, 2 number, 3 string, 4 bool, 5 struct, 6 list) → JSON; `into` is a value already read for this field (merged). */
function readValue(r: Reader, end: number, into: unknown): unknown {
  let out = into;
  while (r.pos < end) {
    const tag = r.uint(end);
    switch (tag) {
      case (1 << 3) | VARINT:
        r.uint(end);
        out = null;
        break;
      case (2 << 3) | FIXED64:
        out = r.double(end);
        break;
      case (3 << 3) | BYTES:
        out = r.string(end);
        break;
      case (4 << 3) | VARINT:
        out = r.uint(end) !== 0;
        break;
      case (5 << 3) | BYTES:
        out = readStruct(r, r.delimited(end), isPlainObject(out) ? out : {});
        break;
      case (6 << 3) | BYTES:
        out = readList(r, r.delimited(end), Array.isArray(out) ? out : []);
        break;
      default:
        r.skip(tag & 7, end);
    }
  }
  return out === undefined ? null : out;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `google.protobuf.Struct`: field 1, map<string, Value> (entries: 1 key, 2 value). */
function readStruct(r: Reader, end: number, out: Record<string, unknown>): Record<string, unknown> {
  while (r.pos < end) {
    const tag = r.uint(end);
    if (tag !== ((1 << 3) | BYTES)) {
      r.skip(tag & 7, end);
      continue;
    }
    const entryEnd = r.delimited(end);
    let key = '';
    let value: unknown = undefined;
    while (r.pos < entryEnd) {
      const entryTag = r.uint(entryEnd);
      if (entryTag === ((1 << 3) | BYTES)) key = r.string(entryEnd);
      else if (entryTag === ((2 << 3) | BYTES)) value = readValue(r, r.delimited(entryEnd), value);
      else r.skip(entryTag & 7, entryEnd);
    }
    out[key] = value === undefined ? null : value;
  }
  return out;
}

/** `google.protobuf.ListValue`: field 1, repeated Value. */
function readList(r: Reader, end: number, out: unknown[]): unknown[] {
  while (r.pos < end) {
    const tag = r.uint(end);
    if (tag === ((1 << 3) | BYTES)) out.push(readValue(r, r.delimited(end), undefined));
    else r.skip(tag & 7, end);
  }
  return out;
}

const lastType = { bytes: Buffer.alloc(0), text: '' };

const emptyEvent = (): WireEvent => ({ txDigest: undefined, eventSeq: undefined, checkpoint: undefined, timestampMs: undefined, sender: undefined, type: undefined, json: undefined });

/** `sui.rpc.v2.Event`: 3 sender, 4 event_type, 6 json, 7 checkpoint, 8 transaction_digest, 10 event_index. */
function readEvent(r: Reader, end: number, out: WireEvent): WireEvent {
  while (r.pos < end) {
    const tag = r.uint(end);
    switch (tag) {
      case (3 << 3) | BYTES:
        out.sender = r.string(end);
        break;
      case (4 << 3) | BYTES:
        out.type = r.memoString(end, lastType);
        break;
      case (6 << 3) | BYTES:
        out.json = readValue(r, r.delimited(end), out.json);
        break;
      case (7 << 3) | VARINT:
        out.checkpoint = r.uint64(end);
        break;
      case (8 << 3) | BYTES:
        out.txDigest = r.string(end);
        break;
      case (10 << 3) | VARINT:
        out.eventSeq = r.uint(end) >>> 0;
        break;
      default:
        r.skip(tag & 7, end);
    }
  }
  return out;
}

/** `sui.rpc.v2.Watermark` field 1 (cursor) or `QueryEnd` field 1 (reason): the one field read of a small message. */
function readFirstField(r: Reader, end: number, wireType: typeof VARINT | typeof BYTES): number | Uint8Array | undefined {
  let out: number | Uint8Array | undefined;
  while (r.pos < end) {
    const tag = r.uint(end);
    if (tag === ((1 << 3) | wireType)) out = wireType === VARINT ? r.uint(end) : r.bytes(end);
    else r.skip(tag & 7, end);
  }
  return out;
}

/** One `ListEventsResponse` message: 1 event, 2 watermark, 3 end. */
export function readListEventsFrame(bytes: Uint8Array): ListEventsFrame {
  const r = new Reader(asBuffer(bytes));
  const end = bytes.length;
  const out: ListEventsFrame = {};
  while (r.pos < end) {
    const tag = r.uint(end);
    switch (tag) {
      case (1 << 3) | BYTES:
        out.event = readEvent(r, r.delimited(end), out.event ?? emptyEvent());
        break;
      case (2 << 3) | BYTES: {
        const cursor = readFirstField(r, r.delimited(end), BYTES);
        if (cursor !== undefined) out.watermarkCursor = cursor as Uint8Array;
        break;
      }
      case (3 << 3) | BYTES: {
        const reason = readFirstField(r, r.delimited(end), VARINT);
        out.endReason = (reason as number | undefined) ?? out.endReason ?? 0;
        break;
      }
      default:
        r.skip(tag & 7, end);
    }
  }
  return out;
}

/** `google.protobuf.Timestamp` (1 seconds, 2 nanos) → ms. */
function readTimestamp(r: Reader, end: number): number {
  let seconds = 0;
  let nanos = 0;
  while (r.pos < end) {
    const tag = r.uint(end);
    if (tag === ((1 << 3) | VARINT)) seconds = r.int(end);
    else if (tag === ((2 << 3) | VARINT)) nanos = r.int(end);
    else r.skip(tag & 7, end);
  }
  return seconds * 1000 + Math.floor(nanos / 1_000_000);
}

/** `ExecutedTransaction`: 1 digest, 7 timestamp. */
function readTransaction(r: Reader, end: number, out: TransactionTime): TransactionTime {
  while (r.pos < end) {
    const tag = r.uint(end);
    if (tag === ((1 << 3) | BYTES)) out.digest = r.string(end);
    else if (tag === ((7 << 3) | BYTES)) out.timestampMs = readTimestamp(r, r.delimited(end));
    else r.skip(tag & 7, end);
  }
  return out;
}

/**
 * `BatchGetTransactionsResponse` (1: repeated GetTransactionResult, whose oneof is 1 transaction
 * or 2 error): one entry per requested digest, in request order; null for an entry that is an
 * error (or empty).
 */
export function readTransactionTimes(bytes: Uint8Array): (TransactionTime | null)[] {
  const r = new Reader(asBuffer(bytes));
  const end = bytes.length;
  const out: (TransactionTime | null)[] = [];
  while (r.pos < end) {
    const tag = r.uint(end);
    if (tag !== ((1 << 3) | BYTES)) {
      r.skip(tag & 7, end);
      continue;
    }
    const resultEnd = r.delimited(end);
    let result: TransactionTime | null = null;
    while (r.pos < resultEnd) {
      const resultTag = r.uint(resultEnd);
      if (resultTag === ((1 << 3) | BYTES)) result = readTransaction(r, r.delimited(resultEnd), result ?? {});
      else if (resultTag === ((2 << 3) | BYTES)) {
        r.pos = r.delimited(resultEnd);
        result = null;
      } else r.skip(resultTag & 7, resultEnd);
    }
    out.push(result);
  }
  return out;
}

/** Bytes of a varint. */
function varintLength(n: number): number {
  let length = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

function writeVarint(buf: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[at++] = n;
  return at;
}

/** Encoded size of a repeated string field (number below 16) whose values have these UTF-8 lengths. */
const repeatedSize = (lengths: number[]): number => lengths.reduce((n, l) => n + 1 + varintLength(l) + l, 0);

function writeRepeated(buf: Buffer, at: number, field: number, values: readonly string[], lengths: number[]): number {
  values.forEach((value, i) => {
    buf[at++] = (field << 3) | BYTES;
    at = writeVarint(buf, at, lengths[i]);
    at += buf.write(value, at, 'utf8');
  });
  return at;
}

/**
 * `BatchGetTransactionsRequest` (1: repeated digests, 2: read_mask, a FieldMask of 1: repeated
 * paths), encoded directly: the generated type's writer encodes each of a page's hundreds of
 * digests through a TextEncoder call.
 */
export function writeBatchGetTransactionsRequest(digests: readonly string[], paths: readonly string[]): Buffer {
  const digestLengths = digests.map((d) => Buffer.byteLength(d, 'utf8'));
  const pathLengths = paths.map((p) => Buffer.byteLength(p, 'utf8'));
  const maskSize = repeatedSize(pathLengths);
  const buf = Buffer.allocUnsafe(repeatedSize(digestLengths) + 1 + varintLength(maskSize) + maskSize);
  let at = writeRepeated(buf, 0, 1, digests, digestLengths);
  buf[at++] = (2 << 3) | BYTES;
  at = writeVarint(buf, at, maskSize);
  at = writeRepeated(buf, at, 1, paths, pathLengths);
  return buf.subarray(0, at);
}
