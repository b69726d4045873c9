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

const UNSIGNED = /^(0|[1-9][0-9]*)$/;
const ADDRESS = /^(0x)?[0-9a-fA-F]{1,64}$/;

/**
 * Reads typed fields out of one event's JSON, naming the kind and field in every error.
 * A class, not a bag of closures: one is made per event on the indexer's hot path.
 */
export class FieldReader {
  constructor(
    private readonly kind: string,
    private readonly json: Record<string, unknown>,
  ) {}

  private fail(field: string, reason: string): never {
    throw new EventDecodeError(this.kind, field, reason, this.json[field]);
  }

  private unsigned(field: string, max: bigint, label: string): bigint {
    const v = this.json[field];
    let n: bigint | undefined;
    if (typeof v === 'string' && UNSIGNED.test(v)) n = BigInt(v);
    else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
    if (n === undefined || n > max) this.fail(field, `must be a ${label} (decimal string or safe integer)`);
    return n!;
  }

  u64(field: string): bigint {
    return this.unsigned(field, U64_MAX, 'u64');
  }

  u8(field: string): number {
    return Number(this.unsigned(field, 255n, 'u8'));
  }

  bool(field: string): boolean {
    const v = this.json[field];
    if (typeof v !== 'boolean') this.fail(field, 'must be a boolean');
    return v as boolean;
  }

  address(field: string): string {
    const v = this.json[field];
    // Up to 64 hex digits is exactly what normalizes to a valid address (0x + 64 hex).
    if (typeof v !== 'string' || !ADDRESS.test(v)) this.fail(field, 'must be a Sui address');
    return normalizeAddress(v as string);
  }

  /** A coin type as `String` or `std::type_name::TypeName` ({ name }), normalized to `0x<64 hex>::m::T`. */
  typeName(field: string): string {
    const v = this.json[field];
    const name = typeof v === 'string' ? v : typeof v === 'object' && v !== null ? (v as { name?: unknown }).name : undefined;
    if (typeof name !== 'string' || name.split('::').length < 3) this.fail(field, 'must be a Move type name');
    try {
      return normalizeMoveType(name as string);
    } catch {
      return this.fail(field, 'must be a Move type name');
    }
  }

  /** One of `values`; a u8 indexes into them, a string must match one (case-insensitive). */
  oneOf<T extends string>(field: string, values: readonly T[]): T {
    const v = this.json[field];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < values.length) return values[v];
    if (typeof v === 'string') {
      const lower = v.toLowerCase();
      for (const x of values) if (x === lower) return x;
    }
    return this.fail(field, `must be one of ${values.map((x, i) => `${i}|"${x}"`).join(', ')}`);
  }
}
