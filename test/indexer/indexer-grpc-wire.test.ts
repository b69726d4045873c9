import { GrpcTypes } from '@mysten/sui/grpc';
import { describe, expect, it } from 'vitest';
import { toProtoValue } from '../fixtures/sui-chain/grpc-web.js';
import { readListEventsFrame, readTransactionTimes, WireError, writeBatchGetTransactionsRequest } from '../../src/indexer/sources/grpc-wire.js';

// The indexer's own decoding of the two responses it reads per page, checked against messages
// encoded by the SDK's generated types (the same field numbers a full node uses).

const JSON_CONTENTS = {
  player: '0x' + 'ab'.repeat(32),
  stake: '18446744073709551615',
  won: true,
  lost: false,
  ratio: -0.125,
  nothing: null,
  coin_type: { name: '0000000000000000000000000000000000000000000000000000000000000002::sui::SUI' },
  list: [1, 'two', [3], { four: 4 }, null],
  empty: {},
  unicode: 'naïve ☃ 日本',
};

describe('gRPC wire decoding', () => {
  it('reads an event frame as the SDK encodes it, every Value kind included, unread fields skipped', () => {
    const cursor = new Uint8Array([1, 2, 3, 250]);
    const bytes = GrpcTypes.ListEventsResponse.toBinary({
      event: {
        packageId: '0x2',
        module: 'game',
        sender: '0x' + 'cd'.repeat(32),
        eventType: '0x2::game::BetResultEvent',
        contents: { name: 'x', value: new Uint8Array([9, 9, 9]) },
        json: toProtoValue(JSON_CONTENTS),
        checkpoint: 123_456_789n,
        transactionDigest: 'Fq1TPdS5dtXKd6S8KDCswUrkfrMoKSnPkHaEmYaB8Dxo',
        transactionIndex: 7n,
        eventIndex: 3,
      },
      watermark: { cursor, checkpoint: 5n },
    });
    const frame = readListEventsFrame(bytes);
    expect(frame.event).toEqual({
      txDigest: 'Fq1TPdS5dtXKd6S8KDCswUrkfrMoKSnPkHaEmYaB8Dxo',
      eventSeq: 3,
      checkpoint: 123_456_789,
      timestampMs: undefined,
      sender: '0x' + 'cd'.repeat(32),
      type: '0x2::game::BetResultEvent',
      json: JSON_CONTENTS,
    });
    expect([...frame.watermarkCursor!]).toEqual([...cursor]);
    expect(frame.endReason).toBeUndefined();
  });

  it('keeps a u64 checkpoint beyond 2^53 exact', () => {
    const big = (1n << 64n) - 2n;
    const frame = readListEventsFrame(GrpcTypes.ListEventsResponse.toBinary({ event: { checkpoint: big } }));
    expect(BigInt(frame.event!.checkpoint!)).toBe(big);
  });

  it('merges concatenated messages as protobuf does (an event frame followed by the end of the stream)', () => {
    const first = GrpcTypes.ListEventsResponse.toBinary({ event: { sender: '0x1', json: toProtoValue({ a: '1' }) }, watermark: { cursor: new Uint8Array([1]) } });
    const end = GrpcTypes.ListEventsResponse.toBinary({ end: { reason: GrpcTypes.QueryEndReason.ITEM_LIMIT } });
    const frame = readListEventsFrame(Buffer.concat([first, end]));
    expect(frame.event).toMatchObject({ sender: '0x1', json: { a: '1' } });
    expect(frame.endReason).toBe(GrpcTypes.QueryEndReason.ITEM_LIMIT);
    // Two parts of one event: scalars from the later part, structs merged.
    const a = GrpcTypes.ListEventsResponse.toBinary({ event: { eventIndex: 1, json: toProtoValue({ x: '1', y: '2' }) } });
    const b = GrpcTypes.ListEventsResponse.toBinary({ event: { eventIndex: 2, json: toProtoValue({ y: '3' }) } });
    expect(readListEventsFrame(Buffer.concat([a, b])).event).toMatchObject({ eventSeq: 2, json: { x: '1', y: '3' } });
  });

  it('reads the end of a stream with no event and no reason', () => {
    const frame = readListEventsFrame(GrpcTypes.ListEventsResponse.toBinary({ end: {}, watermark: { cursor: new Uint8Array() } }));
    expect(frame.event).toBeUndefined();
    expect(frame.endReason).toBe(0);
    expect(frame.watermarkCursor).toHaveLength(0);
  });

  it('reads transaction times in request order, an error entry as null', () => {
    const bytes = GrpcTypes.BatchGetTransactionsResponse.toBinary({
      transactions: [
        { result: { oneofKind: 'transaction', transaction: { digest: 'A', timestamp: { seconds: 1_764_201_600n, nanos: 123_999_999 }, signatures: [], balanceChanges: [] } } },
        { result: { oneofKind: 'error', error: { code: 5, message: 'not found', details: [] } } },
        { result: { oneofKind: 'transaction', transaction: { digest: 'C', signatures: [], balanceChanges: [] } } },
      ],
    });
    expect(readTransactionTimes(bytes)).toEqual([{ digest: 'A', timestampMs: 1_764_201_600_123 }, null, { digest: 'C' }]);
  });

  it('reads each event type right when types change from one frame to the next', () => {
    const types = ['0x2::a::A', '0x2::a::A', '0x2::b::Bé', '0x2::a::A', '0x2::b::Bé'];
    const read = types.map((eventType) => readListEventsFrame(GrpcTypes.ListEventsResponse.toBinary({ event: { eventType } })).event!.type);
    expect(read).toEqual(types);
  });

  it('encodes a BatchGetTransactions request as the SDK reads it', () => {
    const digests = ['Fq1TPdS5dtXKd6S8KDCswUrkfrMoKSnPkHaEmYaB8Dxo', 'x'.repeat(200), ''];
    const bytes = writeBatchGetTransactionsRequest(digests, ['digest', 'timestamp']);
    expect(GrpcTypes.BatchGetTransactionsRequest.fromBinary(bytes)).toEqual({ digests, readMask: { paths: ['digest', 'timestamp'] } });
    expect(GrpcTypes.BatchGetTransactionsRequest.fromBinary(writeBatchGetTransactionsRequest([], []))).toEqual({ digests: [], readMask: { paths: [] } });
  });

  it('refuses truncated and malformed input', () => {
    const bytes = GrpcTypes.ListEventsResponse.toBinary({ event: { sender: '0x1', json: toProtoValue(JSON_CONTENTS) } });
    for (const cut of [1, 2, 10, bytes.length - 1]) expect(() => readListEventsFrame(bytes.subarray(0, cut)), `cut at ${cut}`).toThrow(WireError);
    expect(() => readListEventsFrame(new Uint8Array([0x0b]))).toThrow(WireError); // field 1 as a group (wire type 3)
  });
});
