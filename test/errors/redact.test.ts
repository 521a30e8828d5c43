import { describe, expect, it } from 'vitest';
import { maskSecret, redactViolacao, scrub } from '../../src/errors/redact.ts';

describe('scrub', () => {
  it('masks e-mail addresses, documents and bearer tokens', () => {
    expect(scrub('write to a.b+c@mail.example.com now')).toBe('write to [redacted] now');
    expect(scrub('cpf 123.456.789-09 and 12345678909')).toBe('cpf [redacted] and [redacted]');
    expect(scrub('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer [redacted]');
    expect(scrub('two: x@a.io, y@b.io')).toBe('two: [redacted], [redacted]');
    expect(scrub('no address @here or there@')).toBe('no address @here or there@');
  });

  it('is linear: a 1 MB run of word characters (with and without @) scrubs in well under a second', () => {
    // The former pattern `[\w.+-]+@...` took 5.5 s on 50 kB; this only tells linear from quadratic.
    for (const text of ['a'.repeat(1 << 20), `${'a'.repeat(1 << 20)}@`, 'a@'.repeat(1 << 19)]) {
      const started = performance.now();
      scrub(text);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('masks a secret before scrubbing', () => {
    expect(maskSecret('bad secret s3cr3t for a@b.io', 's3cr3t')).toBe('bad secret [redacted] for [redacted]');
  });

  it('hides a secret that is an ordinary word where it reads as a value, and leaves the word elsewhere', () => {
    expect(maskSecret('Unknown client or wrong secret.', 'wrong')).toBe('Unknown client or wrong secret.');
    expect(maskSecret('client_secret=wrong rejected', 'wrong')).toBe('client_secret=[redacted] rejected');
    expect(maskSecret('secret: "wrong" is wrong', 'wrong')).toBe('secret: "[redacted]" is wrong');
    expect(maskSecret("got 'wrong'", 'wrong')).toBe("got '[redacted]'");
  });
});

describe('redactViolacao', () => {
  const v = { razao: 'CPF 12345678909 inválido', propriedade: 'cob.devedor.cpf', valor: '12345678909' };

  it("scrubs the wire's razao and drops a personal value", () => {
    expect(redactViolacao(v, false)).toEqual({
      razao: 'CPF [redacted] inválido',
      propriedade: 'cob.devedor.cpf',
      valor: '[redacted]',
    });
  });

  it("keeps the SDK's own razao as written, still masking the value", () => {
    expect(redactViolacao(v, true)).toEqual({
      razao: 'CPF 12345678909 inválido',
      propriedade: 'cob.devedor.cpf',
      valor: '[redacted]',
    });
    expect(redactViolacao({ propriedade: 'cob.solicitacaoPagador', valor: 'mail a@b.io' }, true).valor).toBe(
      'mail [redacted]',
    );
  });
});
