import { normalizeSuiAddress } from '@mysten/sui/utils';
import { normalizeMoveType } from '../../input/move-type';
import { EventSourceError, type ChainEvent, type Transport } from './types.js';

export interface RawEvent {
  txDigest: string | null | undefined;
  eventSeq: number | null | undefined;
  checkpoint: bigint | string | number | null | undefined;
  timestampMs: number | null | undefined;
  sender: string | null | undefined;
  type: string | null | undefined;
  json: unknown;
}

const NORMALIZED_ADDRESS = /^0x[0-9a-f]{64}$/;

/** normalizeSuiAddress with a fast path for the already normalized form the SDK hands over. */
export const normalizeAddress = (address: string): string => (NORMALIZED_ADDRESS.test(address) ? address : normalizeSuiAddress(address));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function missing(raw: RawEvent, transport: Transport, what: string): never {
  throw new EventSourceError(`${transport} event ${raw.txDigest ?? '?'}#${raw.eventSeq ?? '?'}: ${what}`, transport, false);
}

/** Checks the fields every transport must deliver and normalizes addresses and types. */
export function toChainEvent(raw: RawEvent, transport: Transport): ChainEvent {
  if (!raw.txDigest) missing(raw, transport, 'missing transaction digest');
  if (typeof raw.eventSeq !== 'number' || !Number.isInteger(raw.eventSeq) || raw.eventSeq < 0) missing(raw, transport, 'missing event sequence number');
  if (typeof raw.timestampMs !== 'number' || !Number.isFinite(raw.timestampMs)) missing(raw, transport, 'missing timestamp');
  if (!raw.sender) missing(raw, transport, 'missing sender');
  if (!raw.type) missing(raw, transport, 'missing event type');
  if (!isRecord(raw.json)) missing(raw, transport, 'missing JSON contents');
  return {
    txDigest: raw.txDigest!,
    eventSeq: raw.eventSeq!,
    checkpoint: raw.checkpoint == null ? null : BigInt(raw.checkpoint),
    timestampMs: raw.timestampMs!,
    sender: normalizeAddress(raw.sender!),
    type: normalizeMoveType(raw.type!),
    json: raw.json as Record<string, unknown>,
  };
}
