/**
 * A shared store without `claim` (a key-value store a user brings) holds a once-only claim with a
 * lease, and the done mark is written after the callback. The mark must be written before the
 * lease is given back: in the gap between the two, another process would take the lease, find no
 * mark and run the callback a second time. Here the mark's write is held until the second
 * process has had every chance to step into that gap.
 */
import { http, HttpResponse } from 'msw';
import { expect, it, vi } from 'vitest';
import { createMemoryStore, receivedPaymentsHandler, type InstantPayment, type Store } from '../../src/index.ts';
import { BASE_URL, testClient, useMsw } from '../support/msw.ts';

const net = useMsw();
const E1 = 'E12345678202610091221abcdef00077';
const payment: InstantPayment = {
  endToEndId: E1,
  txid: 'leaseorder00000000000000000001',
  valor: '5.00',
  horario: '2026-10-09T20:15:00Z',
};

/** A promise and its resolve function. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const notification = () =>
  new Request('https://shop.example/webhook/instant', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ recebidos: [payment] }),
  });

/** A shared store with no `claim` whose done-mark writes wait for `open()`; counts the looks for the mark. */
function gatedStore() {
  const inner = createMemoryStore();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const markWriting = deferred();
  let looks = 0;
  const looked = new EventTarget();
  const store: Store = {
    lease: (name, owner, ttl) => inner.lease(name, owner, ttl),
    unlease: (name, owner) => inner.unlease(name, owner),
    get: async (key) => {
      if (key.startsWith('done:')) {
        looks++;
        looked.dispatchEvent(new Event('look'));
      }
      return inner.get(key);
    },
    set: async (key, value, ttl) => {
      if (key.startsWith('done:')) {
        markWriting.resolve();
        await gate;
      }
      return inner.set(key, value, ttl);
    },
    delete: (key, ifValue) => inner.delete(key, ifValue),
    list: (prefix) => inner.list(prefix),
  };
  const looksReach = (n: number) =>
    new Promise<void>((resolve) => {
      if (looks >= n) return resolve();
      looked.addEventListener('look', function check() {
        if (looks < n) return;
        looked.removeEventListener('look', check);
        resolve();
      });
    });
  return { store, open, markWriting: markWriting.promise, looksReach };
}

it('a lease-held claim writes its done mark before giving the lease back: a second process never runs the callback', async () => {
  net.server.use(http.get(`${BASE_URL}/instant/:e2eid`, () => HttpResponse.json(payment)));
  const { store, open, markWriting, looksReach } = gatedStore();
  const ran = vi.fn();
  const secondRan = deferred();
  const onPayment = () => {
    ran();
    if (ran.mock.calls.length === 2) secondRan.resolve();
  };
  // Two processes: two clients and two handlers, sharing only the store.
  const claim = { waitMs: 10_000, pollMs: 5 };
  const first = receivedPaymentsHandler(testClient({ maxRetries: 0 }), { store, onPayment, claim });
  const second = receivedPaymentsHandler(testClient({ maxRetries: 0 }), { store, onPayment, claim });

  const a = first(notification());
  await markWriting; // the first process ran the callback and is writing its mark
  const b = second(notification());
  // The second process either waits on the lease (looking for the mark again and again) or,
  // were the lease given back early, runs the callback: whichever comes first opens the gate.
  await Promise.race([looksReach(8), secondRan.promise]);
  open();
  const [ra, rb] = await Promise.all([a, b]);
  expect([ra.status, rb.status]).toEqual([200, 200]);
  expect(ran).toHaveBeenCalledTimes(1);
});
