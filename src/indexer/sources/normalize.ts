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

/** Checks the fields every transport must deliver and normalizes addresses and types. */
export function toChainEvent(raw: RawEvent, transport: Transport): ChainEvent {
  const where = `${raw.txDigest ?? '?'}#${raw.eventSeq ?? '?'}`;
  const fail = (what: string): never => {
    throw new EventSourceError(`${transport} event ${where}: ${what}`, transport, false);
  };
  if (!raw.txDigest) fail('missing transaction digest');
  if (typeof raw.eventSeq !== 'number' || !Number.isInteger(raw.eventSeq) || raw.eventSeq < 0) fail('missing event sequence number');
  if (typeof raw.timestampMs !== 'number' || !Number.isFinite(raw.timestampMs)) fail('missing timestamp');
  if (!raw.sender) fail('missing sender');
  if (!raw.type) fail('missing event type');
  if (!isRecord(raw.json)) fail('missing JSON contents');
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
