import { describe, expect, it } from 'vitest';
import { InvalidLocationError } from '../../src/payer/errors.ts';
import { classifyHost, resolveLocation } from '../../src/payer/location.ts';

function reasonOf(location: string, allowPrivateHosts = false): string | undefined {
  try {
    resolveLocation(location, allowPrivateHosts);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidLocationError);
    return (error as InvalidLocationError).reason;
  }
}

describe('resolveLocation', () => {
  it('prepends https:// to a location written without a scheme', () => {
    const { url } = resolveLocation('qr.psp.example/qr/v2/8b3da2f39a4140d1a91abd93113bd441', false);
    expect(url.href).toBe('https://qr.psp.example/qr/v2/8b3da2f39a4140d1a91abd93113bd441');
  });

  it('accepts a location that already starts with https://', () => {
    expect(resolveLocation('https://qr.psp.example/qr/v2/cobv/abc', false).url.href).toBe(
      'https://qr.psp.example/qr/v2/cobv/abc',
    );
  });

  it.each([
    ['http://qr.psp.example/qr/v2/abc', 'scheme'],
    ['ftp://qr.psp.example/abc', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['data:text/plain,hi', 'scheme'],
    ['user:pass@qr.psp.example/abc', 'userinfo'],
    ['user@qr.psp.example/abc', 'userinfo'],
    ['203.0.113.7/qr/abc', 'ip-literal'],
    ['[2001:db8::1]/qr/abc', 'ip-literal'],
    ['localhost/qr/abc', 'private-host'],
    ['localhost:8080/qr/abc', 'private-host'],
    ['api.localhost/qr/abc', 'private-host'],
    ['printer.local/qr/abc', 'private-host'],
    ['intranet/qr/abc', 'private-host'],
    ['127.0.0.1/qr/abc', 'private-host'],
    ['0x7f.1/qr/abc', 'private-host'],
    ['10.1.2.3/qr/abc', 'private-host'],
    ['172.20.0.1/qr/abc', 'private-host'],
    ['192.168.0.10/qr/abc', 'private-host'],
    ['169.254.169.254/latest/meta-data', 'private-host'],
    ['[::1]/qr/abc', 'private-host'],
    ['[fe80::1]/qr/abc', 'private-host'],
    ['[::ffff:127.0.0.1]/qr/abc', 'private-host'],
    ['qr.psp.example:8443/qr/abc', 'port'],
    [`qr.psp.example/${'a'.repeat(63)}`, 'too-long'],
    ['qr.psp.example/qr/abc?x=1', 'malformed'],
    ['qr.psp.example/qr/abc#frag', 'malformed'],
    ['qr.psp.example/qr/a b', 'malformed'],
    ['qr.psp.example\\@evil.example/x', 'userinfo'],
    ['qr.psp.example\\evil.example/x', 'malformed'],
    ['', 'malformed'],
  ])('refuses %s (%s)', (location, reason) => {
    expect(reasonOf(location)).toBe(reason);
  });

  it('allows exactly 77 characters', () => {
    const location = `qr.psp.example/${'a'.repeat(62)}`;
    expect(location).toHaveLength(77);
    expect(reasonOf(location)).toBeUndefined();
  });

  it('never puts the location (a capability URL) in the error message', () => {
    try {
      resolveLocation('127.0.0.1/qr/v2/secret-access-token', false);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-access-token');
      expect(JSON.stringify(error)).not.toContain('secret-access-token');
    }
  });

  describe('allowPrivateHosts', () => {
    it('lets loopback and private hosts through, over http and on any port', () => {
      expect(resolveLocation('http://127.0.0.1:8080/qr/abc', true).url.href).toBe('http://127.0.0.1:8080/qr/abc');
      expect(resolveLocation('localhost:3000/qr/abc', true).url.href).toBe('https://localhost:3000/qr/abc');
      expect(resolveLocation('http://[::1]:9/x', true).url.host).toBe('[::1]:9');
      expect(resolveLocation('10.0.0.5/x', true).url.hostname).toBe('10.0.0.5');
    });

    it('keeps every rule for public hosts', () => {
      expect(reasonOf('http://qr.psp.example/abc', true)).toBe('scheme');
      expect(reasonOf('qr.psp.example:8443/abc', true)).toBe('port');
      expect(reasonOf('203.0.113.7/abc', true)).toBe('ip-literal');
      expect(reasonOf('user@127.0.0.1/abc', true)).toBe('userinfo');
      expect(reasonOf('ftp://127.0.0.1/abc', true)).toBe('scheme');
    });
  });
});

describe('classifyHost', () => {
  it('tells public names, private hosts and public IP literals apart', () => {
    expect(classifyHost('qr.psp.example')).toBe('public');
    expect(classifyHost('LOCALHOST.')).toBe('private');
    expect(classifyHost('100.64.0.1')).toBe('private');
    expect(classifyHost('8.8.8.8')).toBe('public-ip');
    expect(classifyHost('[fd00::1]')).toBe('private');
  });
});
