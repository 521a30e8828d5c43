/**
 * Logging: a `logger` option taking any object with `debug`/`info`/`warn`/`error` (console, pino
 * and the like; missing methods are skipped), or, without one, the `INSTANT_PAYMENTS_LOG`
 * environment variable (`debug`, `info`, `warn` or `error`) logging to stderr. What is logged:
 * methods, route templates (`/cob/{}`), statuses, timings, counts, error names and reasons.
 * Never tokens, secrets, documents, ids from a path, or any body.
 */

/** Where the SDK reports what it does: any object with some of these methods (console, pino...). */
export interface Logger {
  /** Every request with its status and time. */
  debug?(message: string, meta?: Record<string, unknown>): void;
  /** Token fetches, confirmed notifications. */
  info?(message: string, meta?: Record<string, unknown>): void;
  /** Retries with their reason and wait, token refreshes, refused redirects, failed requests, unconfirmed notifications. */
  warn?(message: string, meta?: Record<string, unknown>): void;
  /** Token request failures, notifications answered 500/503. */
  error?(message: string, meta?: Record<string, unknown>): void;
}

/** The levels `INSTANT_PAYMENTS_LOG` takes, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The environment variable that turns on logging to stderr without code changes. */
export const LOG_ENV = 'INSTANT_PAYMENTS_LOG';

let fromEnv: { logger: Logger | undefined } | undefined;

/** The logger a client uses: the one given, else the `INSTANT_PAYMENTS_LOG` one (read once), else none. */
export function resolveLogger(given: Logger | undefined): Logger | undefined {
  if (given) return given;
  fromEnv ??= { logger: envLogger(readEnv(LOG_ENV)) };
  return fromEnv.logger;
}

/** A logger writing `level` and above to stderr (`console.error`), one line each. */
export function stderrLogger(level: LogLevel): Logger {
  const logger: Logger = {};
  for (const name of LOG_LEVELS.slice(LOG_LEVELS.indexOf(level))) {
    logger[name] = (message, meta) => {
      console.error(`[instant-payments] ${name} ${message}${meta ? ` ${JSON.stringify(meta)}` : ''}`);
    };
  }
  return logger;
}

function envLogger(value: string | undefined): Logger | undefined {
  const level = value?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level ?? '') ? stderrLogger(level as LogLevel) : undefined;
}

/** `process.env[name]` where there is one: browsers have no `process`, Deno may refuse access. */
export function readEnv(name: string): string | undefined {
  try {
    return typeof process === 'undefined' ? undefined : process.env?.[name];
  } catch {
    return undefined;
  }
}

/** Only for tests: forget the environment's logger so the next client reads the variable again. */
export function resetEnvLogger(): void {
  fromEnv = undefined;
}
