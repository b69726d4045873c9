// What a sub-name label may be, and the chain write that issues one.
import {
  isValidSuiAddress,
  isValidSuiObjectId,
  normalizeSuiAddress,
  normalizeSuiObjectId,
} from "@mysten/sui/utils";
import { z } from "zod";
import { objectInput } from "../../providers/sui-write-inputs";
import { CALL_TARGETS } from "../../chain-events/contract";
import {
  ChainWriteRejectedError,
  moveCallTarget,
  type ChainWriterService,
  type JsonPayload,
} from "../chain-writes";

export const NAMESERVICE_SUBNAME_KIND = "nameservice.subname";
export const subnameWriteKey = (wallet: string) =>
  `${NAMESERVICE_SUBNAME_KIND}:${wallet}`;

/** SuiNS's subdomain label rules: 3–63 characters of a–z, 0–9 and hyphens, no hyphen first or last. */
export const LABEL_MIN_LENGTH = 3;
export const LABEL_MAX_LENGTH = 63;

/**
 * Labels no player may claim: names that would pass for the platform's staff, services or
 * infrastructure (a player called `support.<parent>` could phish other players).
 */
export const RESERVED_LABELS: ReadonlySet<string> = new Set([
  "admin",
  "administrator",
  "api",
  "app",
  "blog",
  "bot",
  "casino",
  "dev",
  "docs",
  "help",
  "house",
  "info",
  "mail",
  "mod",
  "moderator",
  "null",
  "official",
  "operator",
  "owner",
  "platform",
  "root",
  "security",
  "staff",
  "support",
  "system",
  "team",
  "test",
  "treasury",
  "undefined",
  "wallet",
  "www",
]);

/** The claim's input. Labels are case-insensitive on SuiNS: upper case is folded to lower case. */
export const subnameClaimInput = z.strictObject({
  label: z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(
      z
        .string()
        .min(LABEL_MIN_LENGTH, {
          error: `must be at least ${LABEL_MIN_LENGTH} characters`,
        })
        .max(LABEL_MAX_LENGTH, {
          error: `must be at most ${LABEL_MAX_LENGTH} characters`,
        })
        .regex(/^[a-z0-9-]*$/, {
          error: "may contain only a-z, 0-9 and hyphens",
        })
        .refine((v) => !v.startsWith("-") && !v.endsWith("-"), {
          error: "must not start or end with a hyphen",
        })
        .refine((v) => !RESERVED_LABELS.has(v), { error: "is reserved" }),
    ),
});

/** The chain write's payload: everything the transaction needs, fixed at claim time. */
export interface SubnamePayload {
  recipient: string;
  /** The whole name, `<label>.<parent domain>`, as SuiNS's `subdomains::new` takes it. */
  name: string;
  /** u64 milliseconds as a decimal string. */
  expirationTimestampMs: string;
  parentNftId: string;
  suinsObjectId: string;
  subdomainsPackageId: string;
}

const objectId = z
  .string()
  .refine(isValidSuiObjectId)
  .transform((v) => normalizeSuiObjectId(v));
const payloadSchema = z.object({
  recipient: z
    .string()
    .refine((v) => isValidSuiAddress(normalizeSuiAddress(v)))
    .transform((v) => normalizeSuiAddress(v)),
  name: z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/),
  expirationTimestampMs: z.string().regex(/^\d{1,19}$/),
  parentNftId: objectId,
  suinsObjectId: objectId,
  subdomainsPackageId: objectId,
});

/**
 * `nameservice.subname` writes: SuiNS's `subdomains::new(suins: &mut SuiNS, parent: &SuinsRegistration,
 * clock: &Clock, subdomain_name: String, expiration_timestamp_ms: u64, allow_creation: bool,
 * allow_time_extension: bool, ctx) → SubDomainRegistration` (the call @mysten/suins's `createSubName`
 * makes), then the new NFT goes to the player. The player may neither create children nor extend it.
 */
export function registerSubnameIssuance(
  chainWriter: ChainWriterService,
  subdomainsPackageId: string | undefined,
): void {
  const call = CALL_TARGETS[NAMESERVICE_SUBNAME_KIND];
  chainWriter.register(
    NAMESERVICE_SUBNAME_KIND,
    (tx, payload: JsonPayload) => {
      const parsed = payloadSchema.safeParse(payload);
      if (!parsed.success)
        throw new ChainWriteRejectedError(
          `nameservice.subname: invalid payload (${parsed.error.issues.map((i) => i.path.join(".")).join(", ")})`,
        );
      const p = parsed.data;
      const nft = tx.moveCall({
        target: moveCallTarget(p.subdomainsPackageId, call),
        arguments: [
          tx.object(objectInput(p.suinsObjectId, true)),
          tx.object(objectInput(p.parentNftId, false)),
          tx.object.clock(),
          tx.pure.string(p.name),
          tx.pure.u64(BigInt(p.expirationTimestampMs)),
          tx.pure.bool(false),
          tx.pure.bool(false),
        ],
      });
      tx.transferObjects([nft], tx.pure.address(p.recipient));
    },
    { call, packageId: subdomainsPackageId },
  );
}
