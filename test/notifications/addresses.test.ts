/**
 * `authenticate.allowIps` and `trustedProxies`: which connecting addresses a range lets in,
 * whatever spelling the socket or the hop gives them (a port, brackets, a zone, IPv4 mapped into
 * IPv6, `::` anywhere), which text is no address at all (refused, never read as another one), and
 * which entries are refused when the handler is built.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError, receivedPaymentsHandler, type NotificationHandler } from '../../src/index.ts';
import { countingApi, paymentBody } from './support.ts';

const handlers = new Map<string, NotificationHandler>();

/** The status a delivery from `remoteAddress` gets from a handler with `allowIps` (and `trustedProxies`). */
async function status(
  allowIps: string[],
  remoteAddress: string,
  forwardedFor?: string,
  trustedProxies?: string[],
): Promise<number> {
  const key = JSON.stringify([allowIps, trustedProxies]);
  let handler = handlers.get(key);
  if (handler === undefined) {
    handler = receivedPaymentsHandler(countingApi(), {
      authenticate: { allowIps, ...(trustedProxies && { trustedProxies }) },
      onPayment: () => {},
    });
    handlers.set(key, handler);
  }
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  const request = new Request('https://shop.example/webhook/instant', { method: 'POST', body: paymentBody(), headers });
  return (await handler(request, { remoteAddress })).status;
}

/** Every address of `cases` against `allowIps`: the statuses, by address, for one readable failure. */
async function statuses(allowIps: string[], cases: Record<string, number>): Promise<void> {
  const seen: Record<string, number> = {};
  for (const address of Object.keys(cases)) seen[address] = await status(allowIps, address);
  expect(seen, `allowIps ${JSON.stringify(allowIps)}`).toEqual(cases);
}

describe('allowIps ranges', () => {
  it('an IPv4 range compares every byte of its prefix, the last one in part', async () => {
    await statuses(['203.0.113.0/24'], {
      '203.0.113.0': 200,
      '203.0.113.255': 200,
      '203.0.112.9': 403,
      '203.1.113.9': 403,
      '198.0.113.9': 403,
    });
    await statuses(['203.0.113.128/25'], { '203.0.113.128': 200, '203.0.113.200': 200, '203.0.113.127': 403 });
    await statuses(['10.0.0.0/9'], { '10.127.255.1': 200, '10.128.0.1': 403, '11.0.0.1': 403 });
  });

  it('a bare address or a /32 lets that address alone in; /0 every IPv4 address and no IPv6 one', async () => {
    for (const entry of ['203.0.113.9', '203.0.113.9/32']) {
      await statuses([entry], { '203.0.113.9': 200, '203.0.113.8': 403, '203.0.113.10': 403, '103.0.113.9': 403 });
    }
    await statuses(['0.0.0.0/0'], { '198.51.100.7': 200, '::ffff:1.2.3.4': 200, '2001:db8::1': 403 });
  });

  it('an IPv6 range, aligned on a byte or not; ::/0 lets every address in', async () => {
    await statuses(['2001:db8::/32'], { '2001:db8:ffff::1': 200, '2001:db9::1': 403, '3001:db8::1': 403 });
    await statuses(['2001:db8::/33'], { '2001:db8:7fff::1': 200, '2001:db8:8000::1': 403 });
    await statuses(['2001:db8::1/128'], { '2001:db8::1': 200, '2001:db8::2': 403 });
    await statuses(['::/0'], { '203.0.113.9': 200, '2001:db8::1': 200, 'fe80::1': 200 });
  });
});

describe('address spellings', () => {
  it('the forms a socket or a hop gives are read as the address they name', async () => {
    await statuses(['2001:db8::1'], {
      '2001:db8::1': 200,
      '2001:DB8:0:0:0:0:0:1': 200,
      '[2001:db8::1]': 200,
      '[2001:db8::1]:443': 200,
      '2001:db8::1%eth0': 200,
      '2001:db8::2%eth0': 403,
    });
    await statuses(['203.0.113.9'], {
      '203.0.113.9:5678': 200,
      '[203.0.113.9]:443': 200,
      '::ffff:203.0.113.9': 200,
      '::ffff:cb00:7109': 200,
      '[::ffff:203.0.113.9]:443': 200,
      ' 203.0.113.9 ': 200,
      '203.0.113.8:5678': 403,
    });
    await statuses(['::/0'], {
      '1:2:3:4:5:6:7:8': 200,
      '1:2:3:4:5:6:7::': 200,
      '::': 200,
      '1::8': 200,
      '1:2:3:4:5:6:1.2.3.4': 200,
      '::1.2.3.4': 200,
    });
  });

  it('text that is no address is refused, never read as another address', async () => {
    await statuses(['::/0'], {
      '203.0.113': 403,
      '203.0.113.9.1': 403,
      '203.0.113.256': 403,
      '203..113.9': 403,
      '203.0.113.0x1': 403,
      '203.0.113.1e2': 403,
      '1.2.3.4:80x': 403,
      'x[2001:db8::1]:443': 403,
      '[2001:db8::1]:443x': 403,
      '[2001:db8::1]:x': 403,
      '1::2::3': 403,
      '1:2:3:4:5:6:7': 403,
      '1:2:3:4:5:6:7:8:9': 403,
      '1:2:3:4::5:6:7:8': 403,
      '1::2:3:4:5:6:7:8': 403,
      '2001:db8::g': 403,
      '12345::1': 403,
      'x2001::1': 403,
      '2001::1x': 403,
      '::ffff:203.0.113.256': 403,
      '1.2.3.4::1': 403,
      '1.2.3.4:5::': 403,
      '::1.2.3.4:5': 403,
      '1:2:3:4:5:6:7:8::1::2': 403,
      nowhere: 403,
    });
  });
});

describe('entries refused when the handler is built', () => {
  const built = (allowIps: unknown) => () =>
    receivedPaymentsHandler(countingApi(), {
      authenticate: { allowIps: allowIps as string[] },
      onPayment: () => {},
    });

  it('an entry that is not an address or CIDR range, named with the option', () => {
    for (const entry of ['10.0.0.0/8/9', '10.0.0.0/', '10.0.0.0/0024', '10.0.0.0/ 8', '10.0.0.0/33', '::/129', 'x']) {
      expect(built([entry]), entry).toThrow(
        expect.objectContaining({
          name: 'ConfigurationError',
          option: 'authenticate.allowIps',
          message: `authenticate.allowIps has an entry that is not an IP address or CIDR range: ${JSON.stringify(entry)}`,
        }),
      );
    }
  });

  it('a list of ranges, not a string', () => {
    expect(built('203.0.113.0/24')).toThrow(ConfigurationError);
    expect(built('203.0.113.0/24')).toThrow('authenticate.allowIps must be a list of CIDR ranges');
  });
});
