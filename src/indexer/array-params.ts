/**
 * A column of a batch as one statement parameter: a PostgreSQL array, in the binary format on
 * PostgreSQL (node-postgres sends a Buffer parameter as binary: no quoting on our side, no array
 * or integer parsing on the server's) or as a text array literal (PGlite, which serializes
 * parameters itself).
 */
export type ArrayEncoding = 'binary' | 'text';

/** Element types sent in binary, by the cast the statement names; other columns travel as `text[]` and are cast by the statement. */
const BINARY_ELEMENT: Readonly<Record<string, { oid: number; size: number }>> = {
  text: { oid: 25, size: -1 },
  int: { oid: 23, size: 4 },
  bigint: { oid: 20, size: 8 },
  boolean: { oid: 16, size: 1 },
};

/** The statement's type for a column parameter: `$n::cast[]`, or `$n::text[]::cast[]` for a binary column sent as text elements. */
export function arrayParamType(cast: string, encoding: ArrayEncoding): string {
  return encoding === 'binary' && !BINARY_ELEMENT[cast] ? `text[]::${cast}[]` : `${cast}[]`;
}

export function arrayParam(values: readonly unknown[], cast: string, encoding: ArrayEncoding): string | Buffer {
  return encoding === 'binary' ? binaryArray(values, BINARY_ELEMENT[cast] ?? BINARY_ELEMENT.text) : arrayLiteral(values);
}

const QUOTE_OR_BACKSLASH = /["\\]/;

/** Every element quoted; what pg builds from a JS array, without its two escaping passes over every element. */
function arrayLiteral(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i > 0) out += ',';
    if (v === null || v === undefined) {
      out += 'NULL';
      continue;
    }
    const text = typeof v === 'string' ? v : String(v);
    out += QUOTE_OR_BACKSLASH.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : `"${text}"`;
  }
  return `${out}}`;
}

const TWO_32 = 2 ** 32;

/**
 * PostgreSQL's binary array (array_recv): dimensions, null flag, element type, then each element
 * as its length and bytes (-1 for null). One dimension, lower bound 1; no dimension when empty.
 */
function binaryArray(values: readonly unknown[], element: { oid: number; size: number }): Buffer {
  const texts = element.size < 0 ? values.map((v) => (v === null || v === undefined ? null : typeof v === 'string' ? v : String(v))) : null;
  let size = values.length === 0 ? 12 : 20;
  let nulls = 0;
  for (let i = 0; i < values.length; i++) {
    const v = texts ? texts[i] : values[i];
    if (v === null || v === undefined) nulls = 1;
    size += 4 + (v === null || v === undefined ? 0 : texts ? Buffer.byteLength(v as string, 'utf8') : element.size);
  }
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(values.length === 0 ? 0 : 1, 0);
  out.writeInt32BE(nulls, 4);
  out.writeInt32BE(element.oid, 8);
  if (values.length === 0) return out;
  out.writeInt32BE(values.length, 12);
  out.writeInt32BE(1, 16);
  let at = 20;
  for (let i = 0; i < values.length; i++) {
    const v = texts ? texts[i] : values[i];
    if (v === null || v === undefined) {
      out.writeInt32BE(-1, at);
      at += 4;
    } else if (texts) {
      const length = out.write(v as string, at + 4, 'utf8');
      out.writeInt32BE(length, at);
      at += 4 + length;
    } else {
      out.writeInt32BE(element.size, at);
      at = writeElement(out, at + 4, v, element.oid);
    }
  }
  return out;
}

function writeElement(out: Buffer, at: number, v: unknown, oid: number): number {
  switch (oid) {
    case 23:
      return out.writeInt32BE(Number(v), at);
    case 16:
      return out.writeUInt8(v ? 1 : 0, at);
    default: {
      // int8: a bigint as is, a number (a safe integer) as its two 32-bit halves.
      if (typeof v === 'bigint') return out.writeBigInt64BE(v, at);
      const n = Number(v);
      if (!Number.isSafeInteger(n)) throw new RangeError(`not an int8: ${String(v)}`);
      out.writeInt32BE(Math.floor(n / TWO_32), at);
      return out.writeUInt32BE(((n % TWO_32) + TWO_32) % TWO_32, at + 4);
    }
  }
}
