/**
 * Seeded fault injection. Each request the sandbox may fault draws from one generator, so a run
 * with the same seed and the same order of requests meets the same faults. The kinds:
 *
 * - `503`, `504`: a problem document (`ServicoIndisponivel`, `IndisponibilidadePorTempoEsgotado`)
 *   with `Retry-After`; nothing is applied;
 * - `drop-before`: the connection is dropped and nothing is applied;
 * - `drop-after`: the change is applied, then the connection is dropped before any answer;
 * - `drop`: one of the two above, drawn;
 * - `cut`: the change is applied and the answer is cut in the middle of its body;
 * - `latency`: the answer comes late (`latencyMs`, up to twice that), otherwise intact.
 */
import { Random } from './random.ts';

/** The faults the sandbox can inject. */
export const FAULT_KINDS = ['503', '504', 'drop', 'drop-before', 'drop-after', 'cut', 'latency'] as const;
/** One kind of fault (`'503'`, `'drop'`, `'latency'`...). */
export type FaultKind = (typeof FAULT_KINDS)[number];
/** What actually happens to one request (`drop` resolved). */
export type Fault = Exclude<FaultKind, 'drop'>;

/** How often, and which, faults the sandbox injects. */
export interface FaultOptions {
  /** Share of requests that meet a fault, 0 to 1; 0 stops injecting. */
  rate: number;
  /** Which faults (default: all of them). */
  kinds?: readonly FaultKind[];
  /** Base delay of `latency`, in milliseconds (default 100). */
  latencyMs?: number;
  /** `Retry-After` of 503 and 504, in seconds (default 1). */
  retryAfter?: number;
  /** Seed of this injection (default: the sandbox's seed). */
  seed?: number;
}

/** The connection is to be dropped: no answer at all. */
export class ConnectionDrop extends Error {
  override readonly name = 'ConnectionDrop';
}

export class FaultInjector {
  #random: Random;
  #rate = 0;
  #kinds: readonly FaultKind[] = FAULT_KINDS;
  latencyMs = 100;
  retryAfter = 1;
  /** How many of each fault were injected since the sandbox started. */
  readonly counts: Record<Fault, number> = {
    '503': 0,
    '504': 0,
    'drop-before': 0,
    'drop-after': 0,
    cut: 0,
    latency: 0,
  };

  readonly #seed: number;

  constructor(seed: number) {
    this.#seed = seed;
    this.#random = new Random(seed);
  }

  configure(options: FaultOptions): void {
    if (!(options.rate >= 0 && options.rate <= 1)) throw new RangeError('rate must be from 0 to 1');
    const kinds = options.kinds ?? FAULT_KINDS;
    for (const kind of kinds)
      if (!FAULT_KINDS.includes(kind)) throw new RangeError(`unknown fault kind ${String(kind)}`);
    if (kinds.length === 0) throw new RangeError('kinds must name at least one fault');
    this.#rate = options.rate;
    this.#kinds = [...kinds];
    this.latencyMs = options.latencyMs ?? 100;
    this.retryAfter = options.retryAfter ?? 1;
    this.#random = new Random(options.seed ?? this.#seed);
  }

  /** The fault for the next request, if any. */
  draw(): { fault: Fault; delayMs: number } | undefined {
    if (this.#rate === 0 || this.#random.next() >= this.#rate) return undefined;
    const kind = this.#random.pick(this.#kinds);
    const fault: Fault = kind === 'drop' ? (this.#random.next() < 0.5 ? 'drop-before' : 'drop-after') : kind;
    this.counts[fault]++;
    return { fault, delayMs: fault === 'latency' ? Math.round(this.latencyMs * (1 + this.#random.next())) : 0 };
  }
}

/** `response` with the same status and headers whose body breaks off halfway. */
export async function cutMidBody(response: Response): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
  const headers = new Headers(response.headers);
  headers.set('content-length', String(Math.max(bytes.length, 2)));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(half);
    },
    pull(controller) {
      controller.error(new ConnectionDrop('cut mid-body'));
    },
  });
  return new Response(body, { status: response.status, headers });
}
