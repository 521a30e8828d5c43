/**
 * The sandbox's test clock (api.md "Time"): a base clock (`createSandbox({ now })`, else the
 * system's) moved by an offset. It keeps running from where it is set; `advance` moves it
 * forward and fires, in date order, what falls due on the way: each task scheduled on it (a
 * settlement, a scheduled redelivery) at its time, and the sandbox's time-driven changes at each
 * Brasília midnight crossed and at the end (charges due, attempts and requests expired).
 */
import { epochMs, type Now } from '../internal/clock.ts';
import { isRfc3339 } from '../lib/dates.ts';
import { Problem } from './problems.ts';

/** Brasília has kept UTC-3 all year since 2019: its midnight is 03:00 UTC. */
const BRASILIA_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;
/** An ISO 8601 duration in weeks, days, hours, minutes and seconds (`P3D`, `PT2H`, `P1DT12H`, `PT0.5S`). */
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

interface Task {
  due: number;
  run: () => void;
}

/** The sandbox's test clock (`sandbox.clock`): read it with `now()`, move it with `set` and `advance`. */
export class SandboxClock {
  readonly #base: Now;
  /** The sandbox's time-driven changes, run at each step of `advance`. */
  readonly #tick: () => Promise<void>;
  #offsetMs = 0;
  #tasks: Task[] = [];
  #moving: Promise<unknown> = Promise.resolve();

  /** @internal Made by the sandbox: `base` is the clock it runs with, `tick` its time-driven changes. */
  constructor(base: Now, tick: () => Promise<void>) {
    this.#base = base;
    this.#tick = tick;
  }

  /** The sandbox's current instant. */
  now(): Date {
    return new Date(this.#nowMs());
  }

  #nowMs(): number {
    return epochMs(this.#base) + this.#offsetMs;
  }

  /**
   * Moves the clock to `instant` (RFC 3339 with its offset, `2026-12-24T10:00:00-03:00`). Later
   * than now, it advances there (what falls due on the way fires); earlier, it only goes back.
   */
  async set(instant: string): Promise<Date> {
    if (!isRfc3339(instant)) {
      throw new Problem('RequisicaoInvalida', 'set is an RFC 3339 instant with its offset.', [
        {
          propriedade: 'set',
          razao: 'Not an RFC 3339 instant, such as 2026-12-24T10:00:00-03:00.',
          valor: String(instant),
        },
      ]);
    }
    return this.#serial(async () => {
      const target = Date.parse(instant);
      const now = this.#nowMs();
      if (target > now) await this.#advanceTo(target);
      else this.#offsetMs += target - now;
      return this.now();
    });
  }

  /** Moves the clock forward by an ISO 8601 duration (`'P3D'`, `'PT2H'`) or milliseconds, firing what falls due on the way. */
  async advance(by: string | number): Promise<Date> {
    const ms = durationMs(by);
    return this.#serial(async () => {
      await this.#advanceTo(this.#nowMs() + ms);
      return this.now();
    });
  }

  /**
   * @internal
   * Runs `task` once `ms` have passed on this clock, or in real time, whichever comes first (a
   * pause between redeliveries passes either way). Returns the real timer, for `close()` to clear.
   */
  schedule(ms: number, task: () => void): ReturnType<typeof setTimeout> {
    let done = false;
    const entry: Task = {
      due: this.#nowMs() + ms,
      run: () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.#tasks = this.#tasks.filter((t) => t !== entry);
        task();
      },
    };
    const timer = setTimeout(() => entry.run(), ms);
    this.#tasks.push(entry);
    return timer;
  }

  /** One move at a time: a second `advance` starts where the first ended. */
  #serial<T>(move: () => Promise<T>): Promise<T> {
    const next = this.#moving.then(move);
    this.#moving = next.catch(() => undefined);
    return next;
  }

  /** Steps to `target`: to each task's time and each Brasília midnight on the way, in that order. */
  async #advanceTo(target: number): Promise<void> {
    for (;;) {
      const now = this.#nowMs();
      const dueTask = this.#tasks.reduce<number | undefined>(
        (soonest, t) => (t.due <= target && (soonest === undefined || t.due < soonest) ? t.due : soonest),
        undefined,
      );
      const step = Math.min(dueTask ?? target, nextMidnight(now), target);
      if (step > now) this.#offsetMs += step - now;
      const at = this.#nowMs();
      for (const task of this.#tasks.filter((t) => t.due <= at).sort((a, b) => a.due - b.due)) task.run();
      // Let what the tasks started (a settlement's notification) go out before the day's changes.
      await new Promise((resolve) => setImmediate(resolve));
      await this.#tick();
      if (step >= target) return;
    }
  }
}

/** The first Brasília midnight after `ms`. */
function nextMidnight(ms: number): number {
  return (Math.floor((ms - BRASILIA_OFFSET_MS) / DAY_MS) + 1) * DAY_MS + BRASILIA_OFFSET_MS;
}

/** `by` in milliseconds; a `Problem` (400) for anything but a duration or a number of milliseconds, 0 or more. */
export function durationMs(by: unknown): number {
  if (typeof by === 'number' && Number.isFinite(by) && by >= 0) return by;
  const m = typeof by === 'string' ? DURATION.exec(by) : null;
  if (m === null || by === 'P' || by === 'PT' || (typeof by === 'string' && by.endsWith('T'))) {
    throw new Problem('RequisicaoInvalida', 'advance is an ISO 8601 duration or milliseconds.', [
      {
        propriedade: 'advance',
        razao:
          'A duration in weeks, days, hours, minutes or seconds (P3D, PT2H, P1DT12H; months and years vary in length: give days), or milliseconds, 0 or more.',
        valor: String(by),
      },
    ]);
  }
  const [weeks, days, hours, minutes, seconds] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  return Math.round(((((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000);
}
