/**
 * `instant-payments-sandbox --clock`: the command's test clock starts at the instant given and
 * runs on from there; `/sandbox/clock` reads and moves it; a value that is no instant stops the
 * command.
 */
import { describe, expect, it } from 'vitest';
import { todayInBrasilia } from '../../src/lib/dates.ts';
import { startCommand } from './support.ts';

const START = '2026-12-24T10:00:00-03:00';

describe('instant-payments-sandbox --clock', () => {
  it('starts the test clock at the instant given; POST /sandbox/clock moves it', async () => {
    const { out, stop } = await startCommand(['--clock', START]);
    try {
      const clockLine = /^Clock +(\S+)/m.exec(out);
      expect(clockLine?.[1]).toBeDefined();
      const printed = Date.parse(clockLine![1]!);
      expect(printed).toBeGreaterThanOrEqual(Date.parse(START));
      const origin = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
      const read = async () =>
        Date.parse(((await (await fetch(`${origin}/sandbox/clock`)).json()) as { now: string }).now);
      const now = await read();
      expect(now).toBeGreaterThanOrEqual(printed);
      expect(todayInBrasilia(new Date(now))).toBe('2026-12-24');
      const moved = await fetch(`${origin}/sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance: 'P1D' }),
      });
      expect(moved.status).toBe(200);
      expect(todayInBrasilia(new Date(await read()))).toBe('2026-12-25');
    } finally {
      await stop();
    }
  });

  it('stops on a value that is no instant', async () => {
    await expect(startCommand(['--clock', '2026-12-24'])).rejects.toThrow(/exited with 1/);
  });
});
