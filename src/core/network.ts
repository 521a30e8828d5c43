/**
 * A failed connection in words a user can act on. Node's fetch wraps the real reason (a refused
 * connection, a name that does not resolve, a TLS alert) one or two causes deep under a bare
 * "fetch failed"; this finds it and says what it means, keeping the platform's code.
 */

/** What the common network codes mean for the one who configured the URL. */
const MEANING: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused; nothing is listening at that host and port',
  ENOTFOUND: 'the host name does not resolve (DNS); check the host in the URL',
  EAI_AGAIN: 'the host name could not be resolved right now (DNS)',
  ECONNRESET: 'the other side reset the connection',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable from here',
  ENETUNREACH: 'the network is unreachable from here',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the other side closed the connection',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed; add its CA with tls.ca",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's TLS certificate chain ends in an untrusted CA; add it with tls.ca",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate is not trusted; add its CA with tls.ca",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the server's TLS certificate is not trusted; add its CA with tls.ca",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's TLS certificate is not for that host name",
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak TLS at that port (plain http?)',
};

/**
 * The innermost reason in a cause chain (`code: message` when it has a code), and the codes met
 * on the way, outermost first.
 */
export function innermostCause(cause: unknown): { reason: string; codes: string[] } {
  let current = cause;
  let reason = 'network error';
  const codes: string[] = [];
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    reason = typeof code === 'string' ? `${code}: ${current.message.trim()}` : current.message.trim();
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return { reason, codes };
}

/**
 * The most specific reason in a cause chain: `"connection refused: nothing is listening at that
 * host and port (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:8080)"`, or for a code without
 * words its code and message (an OpenSSL alert, "other side closed").
 */
export function describeConnectionFailure(cause: unknown): string {
  const { reason, codes } = innermostCause(cause);
  const meaning = codes.map((code) => MEANING[code]).findLast((words) => words !== undefined);
  return meaning === undefined ? reason : `${meaning} (${reason})`;
}
