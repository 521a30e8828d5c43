import { describe, expect, it } from 'vitest';
import { InstantError } from '../../src/errors/base.ts';
import { PathParameterError, path } from '../../src/core/path.ts';

describe('path', () => {
  it('encodes each parameter as one segment and keeps the route template', () => {
    const built = path`/webhook/${'a+b@c.com'}/x/${12}`;
    expect(built).toEqual({ url: '/webhook/a%2Bb%40c.com/x/12', route: '/webhook/{}/x/{}' });
  });

  it.each(['', '.', '..'])('refuses the segment %j', (segment) => {
    expect(() => path`/cob/${segment}`).toThrow(PathParameterError);
  });

  it('refuses a lone surrogate with a PathParameterError, not a URIError (found by fuzzing)', () => {
    for (const segment of ['\ud800', 'abc\udfff', '\udc00\ud800']) {
      const error = (() => {
        try {
          path`/cob/${segment}`;
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(PathParameterError);
      expect(error).toBeInstanceOf(InstantError);
    }
    expect(path`/cob/${'\ud83d\ude00'}`.url).toBe('/cob/%F0%9F%98%80');
  });
});

describe('path, with what plain JavaScript may pass', () => {
  it('refuses a parameter that is neither a string nor a number with a PathParameterError (found by fuzzing cobr.retry)', () => {
    for (const value of [Object.create(null), { toString: () => 'x' }, undefined, null, true, 10n]) {
      expect(() => path`/cobr/${value as string}/retentativa/x`).toThrow(PathParameterError);
    }
  });
});
