/**
 * How a payer reaches a sandbox on this machine. Locations carry no scheme, so a payer fetches
 * them over https; a sandbox started without `tls` speaks plain http on loopback.
 */
import type { FetchLike } from '../core/types.ts';

/**
 * Options for `new PayerClient(...)` that reach the sandbox at `origin` (`http://127.0.0.1:8080`,
 * as `instant-payments-sandbox` prints it), from this process or another: private hosts
 * allowed, and a `fetch` that sends the payer's https requests to that host to `origin`.
 * `fetch` is what sends them (default: the global one).
 */
export function sandboxPayerOptions(
  origin: string,
  fetch: (url: string, init?: RequestInit) => Promise<Response> = (url, init) => globalThis.fetch(url, init),
): { allowPrivateHosts: true; fetch: FetchLike } {
  const { protocol, host } = new URL(origin);
  const base = `${protocol}//${host}`;
  const httpsOrigin = `https://${host}`;
  return {
    allowPrivateHosts: true,
    fetch: (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return fetch(url.startsWith(httpsOrigin) ? base + url.slice(httpsOrigin.length) : url, init);
    },
  };
}
