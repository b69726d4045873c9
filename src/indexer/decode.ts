import { normalizeMoveType } from '../input/move-type';
import { normalizeAddress } from './sources/normalize.js';

const U64_MAX = (1n << 64n) - 1n;

/** A chain event whose JSON does not match the Move struct it claims to be. Not retryable. */
export class EventDecodeError extends Error {
  override readonly name = 'EventDecodeError';
  readonly retryable = false;
  constructor(
    readonly kind: string,
    readonly field: string,
    reason: string,
    readonly value: unknown,
  ) {
    super(`${kind}: field "${field}" ${reason}, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (field missing)';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}

/** Reads typed fields out of one event's JSON, naming the kind and field in every error. */
export function fieldReader(kind: string, json: Record<string, unknown>) {
  const fail = (field: string, reason: string): never => {
    throw new EventDecodeError(kind, field, reason, json[field]);
  };
  const unsigned = (field: string, max: bigint, label: string): bigint => {
    const v = json[field];
    let n: bigint | undefined;
    if (typeof v === 'string' && /^(0|[1-9][0-9]*)$/.test(v)) n = BigInt(v);
    else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
    if (n === undefined || n > max) fail(field, `must be a ${label} (decimal string or safe integer)`);
    return n!;
  };
  return {
    u64: (field: string): bigint => unsigned(field, U64_MAX, 'u64'),
    u8: (field: string): number => Number(unsigned(field, 255n, 'u8')),
    bool(field: string): boolean {
      const v = json[field];
      if (typeof v !== 'boolean') fail(field, 'must be a boolean');
      return v as boolean;
    },
    address(field: string): string {
      const v = json[field];
      // Up to 64 hex digits is exactly what normalizes to a valid address (0x + 64 hex).
      if (typeof v !== 'string' || !/^(0x)?[0-9a-fA-F]{1,64}$/.test(v)) {
        fail(field, 'must be a Sui address');
      }
      return normalizeAddress(v as string);
    },
    /** A coin type as `String` or `std::type_name::TypeName` ({ name }), normalized to `0x<64 hex>::m::T`. */
    typeName(field: string): string {
      const v = json[field];
      const name = typeof v === 'string' ? v : typeof v === 'object' && v !== null ? (v as { name?: unknown }).name : undefined;
      if (typeof name !== 'string' || name.split('::').length < 3) fail(field, 'must be a Move type name');
      try {
        return normalizeMoveType(name as string);
      } catch {
        return fail(field, 'must be a Move type name');
      }
    },
    /** One of `values`; a u8 indexes into them, a string must match one (case-insensitive). */
    oneOf<T extends string>(field: string, values: readonly T[]): T {
      const v = json[field];
      if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < values.length) return values[v];
      if (typeof v === 'string') {
        const match = values.find((x) => x === v.toLowerCase());
        if (match) return match;
      }
      return fail(field, `must be one of ${values.map((x, i) => `${i}|"${x}"`).join(', ')}`);
    },
  };
}
