import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger } from 'pino';

/**
 * A request's logger, made only when a line is written: Fastify binds a pino child (the request
 * id) to every request, which serialises the bindings and builds a logger object per request,
 * though most requests never log. Each level method asks the parent whether the level is on
 * (the child inherits the parent's level) before making the child; `child`, a level change or
 * anything else makes it at once. Fastify's `childLoggerFactory` (src/http/app.ts).
 */
export class LazyChildLogger {
  #child: Logger | undefined;
  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child, made on first use. */
  get logger(): Logger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  get level(): LevelWithSilentOrString {
    return this.#child ? this.#child.level : this.parent.level;
  }
  set level(level: LevelWithSilentOrString) {
    this.logger.level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return (this.#child ?? this.parent).isLevelEnabled(level);
  }

  #write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.logger[level] as (...a: unknown[]) => void)(...args);
  }

  // Prototype methods: nothing is allocated per request until a line is written.
  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child unless the route sets its own level (then pino's child at once). */
export function lazyChildLoggerFactory(logger: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  if (options.level !== undefined) return logger.child(bindings, options);
  return new LazyChildLogger(logger, bindings, options) as unknown as Logger;
}
