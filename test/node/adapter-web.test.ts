/**
 * The web build's stand-ins (src/node/*.web.ts, swapped in by tsup.config.ts) export what the
 * Node files export, with the same constants, and fail with a ConfigurationError that says why.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/failures.ts';
import * as adapter from '../../src/node/adapter.ts';
import * as adapterWeb from '../../src/node/adapter.web.ts';
import * as tls from '../../src/node/tls.ts';
import * as tlsWeb from '../../src/node/tls.web.ts';

describe('the web build of src/node/', () => {
  it('exports every name the Node files export that the backend entry uses, with the same constants', () => {
    expect(Object.keys(adapterWeb).sort()).toEqual(['DEFAULT_MAX_BODY_BYTES', 'NODE_FORM', 'toNodeHandler']);
    expect(Object.keys(adapter)).toEqual(expect.arrayContaining(Object.keys(adapterWeb)));
    expect(adapterWeb.DEFAULT_MAX_BODY_BYTES).toBe(adapter.DEFAULT_MAX_BODY_BYTES);
    expect(Object.keys(tlsWeb)).toEqual(Object.keys(tls));
  });

  it('says the Node adapter and mTLS need Node, when used', () => {
    const node = adapterWeb.toNodeHandler(async () => new Response());
    expect(() => node({} as never, {} as never)).toThrow(ConfigurationError);
    expect(() => tlsWeb.createTlsTransport()).toThrow(/tls \(mTLS\) needs Node/);
  });
});
