/**
 * IP addresses and CIDR ranges for `authenticate.trustedProxies` and `allowIps`, without
 * node:net (the web-standard handler runs where it is missing). An IPv4 address is held as its
 * IPv4-mapped IPv6 form (`::ffff:1.2.3.4`), so `10.0.0.0/8` matches both spellings of an
 * address a dual-stack socket reports.
 */
import { ConfigurationError } from '../errors/failures.ts';

/** 16 bytes: an IPv6 address, or an IPv4 one mapped. */
type Address = Uint8Array;

interface Range {
  readonly base: Address;
  readonly bits: number;
}

/** A set of CIDR ranges (`10.0.0.0/8`, `2001:db8::/32`, a bare address), checked when built. */
export class AddressSet {
  readonly #ranges: Range[];

  /** Throws `ConfigurationError` naming `option` for an entry that is not an address or CIDR. */
  constructor(option: string, entries: readonly string[]) {
    if (!Array.isArray(entries)) throw new ConfigurationError(option, `${option} must be a list of CIDR ranges`);
    this.#ranges = entries.map((entry) => {
      const [text = '', prefix, extra] = String(entry).split('/');
      const base = parseAddress(text);
      const v4 = base !== undefined && !text.includes(':');
      const max = v4 ? 32 : 128;
      const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (base === undefined || extra !== undefined || !(bits >= 0 && bits <= max)) {
        throw new ConfigurationError(
          option,
          `${option} has an entry that is not an IP address or CIDR range: ${JSON.stringify(entry)}`,
        );
      }
      return { base, bits: v4 ? bits + 96 : bits };
    });
  }

  has(address: Address | undefined): boolean {
    return address !== undefined && this.#ranges.some((range) => inRange(address, range));
  }
}

function inRange(address: Address, { base, bits }: Range): boolean {
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i]! & mask) !== (base[i]! & mask)) return false;
  }
  return true;
}

/**
 * An address as a socket or a forwarded header gives it (`1.2.3.4`, `::ffff:1.2.3.4`,
 * `2001:db8::1`, `[2001:db8::1]:443`, `1.2.3.4:5678`, a zone `%eth0`), or `undefined`.
 */
export function parseAddress(text: string | undefined): Address | undefined {
  if (text === undefined) return undefined;
  let value = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.indexOf(':'));
  value = value.replace(/%.*$/, '');
  if (!value.includes(':')) {
    const v4 = ipv4(value);
    return v4 && new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  }
  return ipv6(value);
}

function ipv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

function ipv6(text: string): Address | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  // A dotted IPv4 tail only ends the whole address (`::ffff:1.2.3.4`), never the part before `::`.
  const words = (part: string, end: boolean): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const groups = part.split(':');
    for (const [i, group] of groups.entries()) {
      if (end && i === groups.length - 1 && group.includes('.')) {
        const v4 = ipv4(group);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(group)) out.push(parseInt(group, 16));
      else return undefined;
    }
    return out;
  };
  const left = words(halves[0]!, halves.length === 1);
  const right = halves.length === 2 ? words(halves[1]!, true) : [];
  if (!left || !right) return undefined;
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...left, ...new Array<number>(missing).fill(0), ...right];
  return new Uint8Array(all.flatMap((w) => [w >> 8, w & 0xff]));
}
