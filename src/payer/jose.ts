/** The three jose functions the verifier uses, behind one dynamic import (so bundlers tree-shake jose). */
export { compactVerify, decodeProtectedHeader, importJWK } from 'jose';
