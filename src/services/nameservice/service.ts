// Name-service sub-names: a player at or above CHAIN.NAMESERVICE_MIN_VIP_LEVEL claims one
// `<label>.<parent domain>`. The claim is a row of nameservice_subname (its primary key holds a
// player to one claim, its unique (parent_domain, label) a label to one player, so racing claims
// cannot both succeed); issuance is one chain write keyed `nameservice.subname:<wallet>`, whose
// row the claim's status is read from (pending → issued with the digest, or failed).
import type { Db } from '../../db/client';
import type { NameserviceConfig } from '../../config';
import { AppError } from '../../errors';
import { parseInput } from '../../input/validate';
import { type ChainWriterService } from '../chain-writes';
import type { Subname, SubnameEligibility, SubnameStatus } from './model';
import { NAMESERVICE_SUBNAME_KIND, subnameClaimInput, subnameWriteKey, type SubnamePayload } from './subname';


export type { Subname, SubnameEligibility } from './model';

export interface NameserviceService {
  /** Whether claims are possible (parent domain, parent NFT, SuiNS ids and the chain writer configured). */
  readonly enabled: boolean;
  eligibility(wallet: string): Promise<SubnameEligibility>;
  /** The wallet's sub-name (any status), or null before it claimed one. */
  subnameOf(wallet: string): Promise<Subname | null>;
  /** Claims `input.label` for the wallet and hands its issuance to the chain writer. */
  claim(wallet: string, input: unknown): Promise<Subname>;
}

export interface NameserviceDeps {
  db: Db;
  chainWriter: ChainWriterService;
  config: NameserviceConfig;
  now?: () => Date;
}

/** SuiNS caps a whole name at 235 characters. */
const MAX_NAME_LENGTH = 235;
const DAY_MS = 86_400_000;

interface Row {
  wallet_address: string;
  parent_domain: string;
  label: string;
  expires_at: Date | string;
  chain_write_key: string;
  claimed_at: Date | string;
  write_status: string | null;
  digest: string | null;
}

const SELECT = `SELECT s.wallet_address, s.parent_domain, s.label, s.expires_at, s.chain_write_key, s.claimed_at, w.status AS write_status, w.digest
                  FROM nameservice_subname s LEFT JOIN chain_write w ON w.idempotency_key = s.chain_write_key`;

function statusOf(writeStatus: string | null): SubnameStatus {
  if (writeStatus === 'confirmed') return 'issued';
  if (writeStatus === 'failed' || writeStatus === 'cancelled') return 'failed';
  return 'pending';
}

const toSubname = (r: Row): Subname => ({
  wallet: r.wallet_address,
  label: r.label,
  name: `${r.label}.${r.parent_domain}`,
  parentDomain: r.parent_domain,
  status: statusOf(r.write_status),
  txDigest: r.write_status === 'confirmed' || r.write_status === 'failed' ? r.digest : null,
  expiresAt: new Date(r.expires_at).toISOString(),
  claimedAt: new Date(r.claimed_at).toISOString(),
});

export function createNameserviceService(deps: NameserviceDeps): NameserviceService {
  const { config, db, chainWriter } = deps;
  const now = deps.now ?? (() => new Date());
  const { parentDomain, parentNftId, suinsObjectId, subdomainsPackageId } = config;
  const enabled = Boolean(parentDomain && parentNftId && suinsObjectId && subdomainsPackageId && chainWriter.configured);

  /** The level of the player's highest-experience VIP event: the rule the xp leaderboard uses. */
  async function vipLevelOf(wallet: string): Promise<number> {
    const rows = await db.query<{ vip_level: number }>('SELECT vip_level FROM vip_exp_progress_event WHERE player = $1 ORDER BY total_exp DESC, id DESC LIMIT 1', [wallet]);
    return rows[0] ? Number(rows[0].vip_level) : 0;
  }

  async function rowOf(wallet: string): Promise<Row | null> {
    const rows = await db.query<Row>(`${SELECT} WHERE s.wallet_address = $1`, [wallet]);
    return rows[0] ?? null;
  }

  function payloadOf(r: Row): SubnamePayload {
    return {
      recipient: r.wallet_address,
      name: `${r.label}.${r.parent_domain}`,
      expirationTimestampMs: String(new Date(r.expires_at).getTime()),
      parentNftId: parentNftId!,
      suinsObjectId: suinsObjectId!,
      subdomainsPackageId: subdomainsPackageId!,
    };
  }

  /**
   * Hands the claim to the chain writer unless it already has it (idempotent by key). A process that
   * died between storing the claim and enqueuing leaves a claim without a write: the next read heals it.
   */
  async function ensureIssuing(r: Row): Promise<Row> {
    if (r.write_status !== null || !enabled) return r;
    const write = await chainWriter.enqueue({ kind: NAMESERVICE_SUBNAME_KIND, key: r.chain_write_key, payload: { ...payloadOf(r) } });
    return { ...r, write_status: write.status, digest: write.digest };
  }

  async function subnameOf(wallet: string): Promise<Subname | null> {
    const row = await rowOf(wallet);
    return row && toSubname(await ensureIssuing(row));
  }

  function alreadyClaimed(r: Row): AppError {
    return new AppError('ALREADY_CLAIMED', `This wallet already claimed ${r.label}.${r.parent_domain}; a player has one sub-name`, { name: `${r.label}.${r.parent_domain}` });
  }

  return {
    enabled,
    async eligibility(wallet) {
      const vipLevel = await vipLevelOf(wallet);
      return { vipLevel, minVipLevel: config.minVipLevel, eligible: vipLevel >= config.minVipLevel, parentDomain: enabled ? parentDomain! : null };
    },
    subnameOf,
    async claim(wallet, input) {
      if (!enabled) throw new AppError('SERVICE_UNAVAILABLE', 'Sub-names are not configured (CHAIN.NAMESERVICE_*, chain writer)');
      const { label } = parseInput(subnameClaimInput, input);
      const name = `${label}.${parentDomain}`;
      if (name.length > MAX_NAME_LENGTH) {
        throw new AppError('VALIDATION_FAILED', `/label: ${name} is longer than ${MAX_NAME_LENGTH} characters`, { issues: [{ path: '/label', message: `the whole name must be at most ${MAX_NAME_LENGTH} characters` }] });
      }
      const earlier = await rowOf(wallet);
      if (earlier) {
        await ensureIssuing(earlier);
        throw alreadyClaimed(earlier);
      }
      const vipLevel = await vipLevelOf(wallet);
      if (vipLevel < config.minVipLevel) {
        throw new AppError('NOT_ELIGIBLE', `Sub-names need VIP level ${config.minVipLevel}; this wallet is at ${vipLevel}`, { vipLevel, minVipLevel: config.minVipLevel });
      }
      const expiresAt = new Date(now().getTime() + config.expirationDays * DAY_MS);
      // No conflict target: a clash on either unique key (the wallet, or the label) inserts nothing.
      const inserted = await db.query<{ wallet_address: string }>(
        `INSERT INTO nameservice_subname (wallet_address, parent_domain, label, expires_at, chain_write_key)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING wallet_address`,
        [wallet, parentDomain, label, expiresAt, subnameWriteKey(wallet)],
      );
      if (!inserted[0]) {
        const mine = await rowOf(wallet);
        if (mine) throw alreadyClaimed(mine);
        throw new AppError('NAME_TAKEN', `${name} belongs to another player`, { name });
      }
      const row = await rowOf(wallet);
      if (!row) throw new Error('nameservice: the stored claim vanished');
      return toSubname(await ensureIssuing(row));
    },
  };
}
