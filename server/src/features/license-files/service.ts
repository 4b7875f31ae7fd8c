/**
 * The license-files feature's surface for other features and the command line (decision 026); the work lives by
 * concern in generate.ts, delivery.ts, preview.ts, verify.ts and signing-keys.ts (decision 063).
 */
export { currentSigner, publishedKeys, rotateSigningKey } from './signing-keys.ts';
