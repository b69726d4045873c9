import { createHash } from 'node:crypto';
import type { RedisConnection } from './connection';

/** A Lua script run by SHA, loaded on first use (and again after a Redis restart). */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

export async function runScript(client: RedisConnection, s: Script, keys: string[], args: Array<string | number>): Promise<unknown> {
  try {
    return await client.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return client.eval(s.source, keys.length, ...keys, ...args);
  }
}

/** KEYS[1] counter; ARGV[1] window ms, ARGV[2] cost → { count, ms until reset }. */
export const HIT = script(`
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`);

/** KEYS[1] lease; ARGV[1] holder, ARGV[2] ttl ms → 1 when held by holder afterwards. */
export const ACQUIRE = script(`
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if current then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** KEYS[1] lease; ARGV[1] holder, ARGV[2] ttl ms → 1 when extended. */
export const RENEW = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`);

/** KEYS[1] lease; ARGV[1] holder → 1 when released. */
export const RELEASE = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

// Member sets are sorted sets scored by expiry (ms, Redis server clock, so replicas with
// skewed clocks agree). The key itself expires with its latest member.
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/** KEYS[1] set; ARGV[1] ttl ms, ARGV[2..] members → live count. */
export const ADD_MEMBERS = script(`${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local expires = now + tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], expires, ARGV[i])
end
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', KEYS[1], tonumber(last[2])) end
return redis.call('ZCARD', KEYS[1])
`);

/** KEYS[1] set; ARGV[1] member → live count. */
export const REMOVE_MEMBER = script(`${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
`);

/** KEYS[1] set → live members. */
export const MEMBERS = script(`${NOW}
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
`);
