import { AppError } from '../errors';

/** The setting that bounds nesting (src/config/settings.ts), named in every refusal. */
export const JSON_DEPTH_SETTING = 'INPUT.JSON_MAX_DEPTH';

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `maxDepth` (`{}` and `[]` are
 * depth 1, `[[1]]` depth 2; scalars add nothing). Iterative, stopping at the first container too
 * deep, so a client's nesting never reaches the stack.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return true;
    const inner = Array.isArray(current) ? current : Object.values(current);
    for (const v of inner) if (v !== null && typeof v === 'object') pending.push([v, depth + 1]);
  }
  return false;
}

/** The same bound on JSON text, read without parsing: brackets outside strings, one pass. */
export function textNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The one nesting rule of every transport (HTTP bodies and GraphQL GET variables, graphql-ws
 * messages, Socket.IO event payloads): deeper than `maxDepth` is `VALIDATION_FAILED` naming the
 * setting, checked where the input is read, before anything walks it recursively.
 */
export function createJsonDepthRule(maxDepth: number) {
  const refusal = (where: string) =>
    new AppError('VALIDATION_FAILED', `The ${where} nests arrays and objects deeper than ${maxDepth} levels (${JSON_DEPTH_SETTING})`, {
      setting: JSON_DEPTH_SETTING,
      maxDepth,
      issues: [{ path: '', message: `nested deeper than ${maxDepth} levels (${JSON_DEPTH_SETTING})` }],
    });
  return {
    maxDepth,
    /** Null when `value` is within the bound, else the refusal to answer with. */
    judge: (value: unknown, where: string): AppError | null => (nestsDeeperThan(value, maxDepth) ? refusal(where) : null),
    judgeText: (text: string, where: string): AppError | null => (textNestsDeeperThan(text, maxDepth) ? refusal(where) : null),
  };
}

export type JsonDepthRule = ReturnType<typeof createJsonDepthRule>;
