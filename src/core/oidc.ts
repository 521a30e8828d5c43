/**
 * What the built-in token provider uses of openid-client, loaded on its first token request
 * (auth.ts imports this file lazily). Named here so that bundlers keep only these: a dynamic
 * import of the package itself keeps all of it (and the jose it brings), a third of a Workers
 * bundle.
 */
export {
  ClientSecretBasic,
  ClientSecretPost,
  TlsClientAuth,
  Configuration,
  allowInsecureRequests,
  clientCredentialsGrant,
  customFetch,
} from 'openid-client';
