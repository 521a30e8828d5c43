/**
 * Reads by key that share statements: while one batch of reads is out, the reads asked for
 * meanwhile wait and go out together as the next batch, one statement for all their keys. Alone,
 * a read goes at once; under load a process sends one read per round trip instead of one per
 * caller (at the fleet bench's peak, where each delivery reads its done mark, a payment costs the
 * database 3.8 statements instead of 5). A batch out longer than `stallMs` stops holding the next one
 * back: one stuck connection delays the other reads by `stallMs` at most.
 */
export function batchedReads(
  read: (keys: string[]) => Promise<ReadonlyMap<string, string>>,
  stallMs: number,
): (key: string) => Promise<string | undefined> {
  type Waiter = { resolve: (value: string | undefined) => void; reject: (error: unknown) => void };
  let waiting = new Map<string, Waiter[]>();
  let holding = false;

  const send = () => {
    const batch = waiting;
    waiting = new Map();
    holding = true;
    let held = true;
    const letGo = () => {
      if (!held) return;
      held = false;
      clearTimeout(stall);
      holding = false;
      if (waiting.size > 0) send();
    };
    const stall = setTimeout(letGo, stallMs);
    stall.unref?.();
    read([...batch.keys()])
      .then(
        (found) => {
          for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
        },
      )
      .finally(letGo);
  };

  return (key) =>
    new Promise((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!holding) send();
    });
}
