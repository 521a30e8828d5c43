/**
 * Every notification the sandbox sends (received-payment webhooks, transfer confirmations, and
 * whatever a part of the sandbox passes to `ctx.notify`) goes through here, and is sent the way
 * a real service sends it: a JSON POST; an answer other than 2xx, or none at all (connection
 * refused or reset, no answer within `timeoutMs`), is sent again, the same bytes, after a pause
 * that doubles (`delayMs`, 2 × `delayMs`...), up to `attempts` in all. A redirect is an answer
 * other than 2xx: it is not followed. Each notification and each attempt is kept in a log.
 *
 * With a client certificate (`webhookClientCertificate`), as a production service: over HTTPS
 * only, presenting a certificate signed by a CA made for this sandbox (`ca`), trusting the
 * receiver's server certificate through `serverCa` (else the platform's CAs).
 */
import { ConfigurationError } from '../errors/failures.ts';
import { backoffMs } from '../internal/retry.ts';
import { createCertificate } from './certificates.ts';

/** How notifications are sent again (`createSandbox({ redelivery })`). */
export interface RedeliveryOptions {
  /** Attempts in all, the first included (default 5; 1 sends each notification once). */
  attempts?: number;
  /** Pause before the second attempt, doubled before each next one, in milliseconds (default 1000). */
  delayMs?: number;
  /** How long one attempt waits for an answer, in milliseconds (default 5000). */
  timeoutMs?: number;
}

/** What one attempt got: the receiver's HTTP status, or why there was none. */
export interface NotificationAnswer {
  status?: number;
  /** Why no answer came (`ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`, `no answer within 5000 ms`). */
  error?: string;
}

/** One attempt: when it was sent, how long its answer took, and what it got. */
export interface NotificationAttempt extends NotificationAnswer {
  /** When the attempt was sent (ISO 8601). */
  at: string;
  /** Milliseconds from sending to the answer (or to the failure). */
  durationMs: number;
  /** Sent by `redeliver(id)`, not by the schedule. */
  redelivery?: true;
}

/** Which of the next notifications are lost for good (`dropNotifications`). */
export interface DropOptions {
  /** The next `count` notifications are lost. */
  count?: number;
  /** Each notification after those is lost with this probability (seeded; 0 stops). */
  rate?: number;
}

/** A notification the sandbox sent, with every attempt so far. */
export interface SentNotification {
  /** 1, 2, 3... in the order the notifications were made. */
  id: number;
  url: string;
  /** The JSON body, as sent on every attempt. */
  body: unknown;
  /**
   * `pending` while an attempt is under way or another is due; then `delivered` (a 2xx) or
   * `failed` (attempts used up); `dropped`: lost for good by `dropNotifications`, never attempted
   * (unless `redeliver(id)` sends it).
   */
  state: 'pending' | 'delivered' | 'failed' | 'dropped';
  attempts: NotificationAttempt[];
  /** What the latest attempt got. */
  lastAnswer?: NotificationAnswer;
  /** When the next attempt is due, while one is (ISO 8601): the pause counts from the last answer. */
  nextAttemptAt?: string;
}

type Send = (input: string, init: RequestInit) => Promise<Response>;

interface NotifierDeps {
  /** How to POST (the sandbox's `fetch` option, else the global `fetch`). */
  send: Send;
  /** Runs a task later unless the sandbox closes first. */
  later: (ms: number, task: () => Promise<void>) => void;
  now: () => Date;
  /** Aborts the attempts under way when the sandbox closes. */
  closed: AbortSignal;
  /** Draws which notifications `dropNotifications({ rate })` loses (seeded). */
  random: () => number;
  /** Deliver over mTLS, trusting `serverCa` (PEM) for the receiver's certificate when given. */
  clientCertificate?: { serverCa?: string | readonly string[] | undefined } | undefined;
}

/** The mTLS side of delivery: the sandbox's webhook CA, its client certificate, and the connection pool using them. */
interface ClientTls {
  readonly ca: string;
  readonly dispatcher: Promise<{ close(): Promise<void> }>;
}

function clientTls(serverCa: string | readonly string[] | undefined, closed: AbortSignal): ClientTls {
  const commonName = 'instant-payments sandbox webhook CA';
  const ca = { ...createCertificate({ commonName, ca: true }), commonName };
  const client = createCertificate({ commonName: 'instant-payments sandbox webhook client', issuer: ca });
  const dispatcher = import('undici').then(
    ({ Agent }) =>
      new Agent({
        connect: {
          cert: client.cert,
          key: client.key,
          ...(serverCa !== undefined && { ca: serverCa as string | string[] }),
        },
      }),
  );
  closed.addEventListener('abort', () => void dispatcher.then((agent) => agent.close()).catch(() => undefined), {
    once: true,
  });
  return { ca: ca.cert, dispatcher };
}

/** The log keeps this many notifications, the oldest dropped first. */
const LOG_LIMIT = 1000;

export class Notifier {
  readonly #deps: NotifierDeps;
  readonly #attempts: number;
  readonly #delayMs: number;
  readonly #timeoutMs: number;
  readonly #log: SentNotification[] = [];
  readonly #tls: ClientTls | undefined;
  #lastId = 0;
  #drop: Required<DropOptions> = { count: 0, rate: 0 };

  constructor(deps: NotifierDeps, options: RedeliveryOptions = {}) {
    this.#deps = deps;
    this.#tls = deps.clientCertificate && clientTls(deps.clientCertificate.serverCa, deps.closed);
    this.#attempts = checked('attempts', options.attempts ?? 5, 1);
    this.#delayMs = checked('delayMs', options.delayMs ?? 1000, 0);
    this.#timeoutMs = checked('timeoutMs', options.timeoutMs ?? 5000, 1);
  }

  /** Sends `body` to `url`; resolves once the first attempt has its answer (later ones follow by themselves). */
  async send(url: string, body: unknown): Promise<SentNotification> {
    const text = JSON.stringify(body);
    const record: SentNotification = {
      id: ++this.#lastId,
      url,
      body: JSON.parse(text),
      state: 'pending',
      attempts: [],
    };
    this.#log.push(record);
    if (this.#log.length > LOG_LIMIT) this.#log.shift();
    if (this.#dropsNext()) record.state = 'dropped';
    else await this.#attempt(record, text);
    return structuredClone(record);
  }

  /** The next notifications are lost for good: `count` of them, then each with probability `rate`. */
  drop({ count = 0, rate = 0 }: DropOptions): void {
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count must be a whole number');
    if (!(rate >= 0 && rate <= 1)) throw new RangeError('rate must be between 0 and 1');
    this.#drop = { count, rate };
  }

  /** Sends the logged notification `id` again, now, once (a `redelivery` attempt); resolves with it. */
  async redeliver(id: number): Promise<SentNotification | undefined> {
    const record = this.#log.find((entry) => entry.id === id);
    if (record === undefined) return undefined;
    await this.#attempt(record, JSON.stringify(record.body), true);
    return structuredClone(record);
  }

  #dropsNext(): boolean {
    if (this.#drop.count > 0) {
      this.#drop.count--;
      return true;
    }
    return this.#drop.rate > 0 && this.#deps.random() < this.#drop.rate;
  }

  /** The CA (PEM) of the client certificate notifications are sent with, when they are sent over mTLS. */
  get ca(): string | undefined {
    return this.#tls?.ca;
  }

  /** Every notification kept (the latest 1000), oldest first; copies. */
  list(): SentNotification[] {
    return structuredClone(this.#log);
  }

  async #attempt(record: SentNotification, text: string, redelivery = false): Promise<void> {
    if (!redelivery) delete record.nextAttemptAt;
    const sent = this.#deps.now().getTime();
    const answer = await this.#post(record.url, text);
    const answered = this.#deps.now().getTime();
    record.attempts.push({
      at: new Date(sent).toISOString(),
      durationMs: answered - sent,
      ...answer,
      ...(redelivery && { redelivery: true as const }),
    });
    record.lastAnswer = answer;
    if (answer.status !== undefined && answer.status >= 200 && answer.status < 300) {
      record.state = 'delivered';
    } else if (redelivery) {
      // A redelivery by hand is one attempt: a schedule under way goes on, a finished one stays finished.
    } else if (record.attempts.length >= this.#attempts || this.#deps.closed.aborted) {
      record.state = 'failed';
    } else {
      const pause = backoffMs(record.attempts.length - 1, {
        baseMs: this.#delayMs,
        maxMs: Number.POSITIVE_INFINITY,
        floor: 1,
      });
      record.nextAttemptAt = new Date(answered + pause).toISOString();
      this.#deps.later(pause, () => this.#attempt(record, text));
    }
  }

  async #post(url: string, text: string): Promise<NotificationAnswer> {
    if (this.#tls && !url.startsWith('https://'))
      return { error: 'not https: with webhookClientCertificate the sandbox delivers over HTTPS only' };
    try {
      const response = await this.#deps.send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.#timeoutMs), this.#deps.closed]),
        ...(this.#tls && { dispatcher: await this.#tls.dispatcher }),
      } as RequestInit);
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      return { error: this.#reasonOf(error) };
    }
  }

  /** The most telling words of a failed attempt: the deepest cause's code and message. */
  #reasonOf(error: unknown): string {
    if (this.#deps.closed.aborted) return 'the sandbox closed';
    if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${this.#timeoutMs} ms`;
    let reason = 'no answer';
    let current = error;
    for (let depth = 0; current instanceof Error && depth < 5; depth++) {
      const code = (current as { code?: unknown }).code;
      reason = typeof code === 'string' ? `${code}: ${current.message}` : current.message;
      current = current.cause;
    }
    return reason;
  }
}

function checked(name: keyof RedeliveryOptions, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new ConfigurationError(`redelivery.${name}`, `redelivery.${name} must be an integer of at least ${min}`);
  return value;
}
