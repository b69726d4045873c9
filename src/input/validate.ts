import type { z } from 'zod';
import { AppError } from '../errors';

/**
 * The one input check of a service: parses `value` with its zod schema, else VALIDATION_FAILED with
 * `details.issues: [{ path, message }]`, the shape REST schema failures have too (http/error-handler.ts).
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path.length ? `/${issue.path.join('/')}` : '', message: issue.message }));
  throw new AppError('VALIDATION_FAILED', issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; '), { issues });
}
