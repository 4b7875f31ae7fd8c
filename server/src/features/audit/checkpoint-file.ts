import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';

/**
 * Audit checkpoints as files (decision 044): each chain's head (seq and hash) at a moment, signed with an Ed25519
 * key the database never holds, written to a folder the database login cannot write. A checkpoint anchors the
 * chains outside the database: whoever edits, truncates or rolls back the log there cannot make the files agree.
 */

export const CHECKPOINT_FORMAT = 'lp-audit-checkpoint/1';
export const KEY_FILE = 'audit-checkpoint.key';
const FILE_PREFIX = 'audit-checkpoint-';

const anchorSchema = z.object({
  chain: z.string().min(1),
  seq: z.number().int().min(1),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
const problemSchema = z.object({
  chain: z.string().nullable(),
  seq: z.number().int().nullable(),
  reason: z.string(),
});
const checkpointSchema = z.object({
  format: z.literal(CHECKPOINT_FORMAT),
  at: z.iso.datetime(),
  /** The job's period; null for a checkpoint made with the CLI */
  period: z.string().nullable(),
  node: z.string(),
  keyId: z.string(),
  chainCount: z.number().int().min(0),
  chains: z.array(anchorSchema),
  /** The chains checked against the previous checkpoint; a failure is carried into every later checkpoint */
  verification: z.object({ ok: z.boolean(), problems: z.array(problemSchema) }),
});
const fileSchema = z.object({
  checkpoint: checkpointSchema,
  /** The signer's public key (SPKI PEM), for an auditor to pin once; verification trusts only a given key */
  publicKey: z.string(),
  /** Ed25519 over the RFC 8785 canonical JSON of `checkpoint`, base64 */
  signature: z.string(),
});

export type ChainAnchor = z.infer<typeof anchorSchema>;
export type CheckpointProblem = z.infer<typeof problemSchema>;
export type Checkpoint = z.infer<typeof checkpointSchema>;
type CheckpointFile = z.infer<typeof fileSchema>;

export interface CheckpointKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
}

/** The first 16 hex digits of the SHA-256 of the public key (SPKI DER). */
export const keyIdOf = (publicKey: KeyObject) =>
  createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);

// RFC 8410: an Ed25519 private key's PKCS#8 DER is this prefix followed by its 32-byte seed.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function keyFromSeed(hex: string): CheckpointKey {
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** An auditor's copy of the public key (PEM), for `audit verify --public-key`. */
export function publicKeyFromPem(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('an audit checkpoint key is an Ed25519 key');
  return key;
}

const SEED = /^[0-9a-fA-F]{64}$/;

function readSeed(file: string): string {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!SEED.test(text)) throw new Error(`${file} does not hold an audit checkpoint key (64 hex digits)`);
  return text;
}

/** Writes a new seed unless one is there; processes starting together all end up with the one that won. */
function createSeedFile(file: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

export const keyFilePath = (config: Config) => path.resolve(config.DATA_DIR, KEY_FILE);

/**
 * The signing key: AUDIT_CHECKPOINT_KEY, else the key file in DATA_DIR. Only a writer of checkpoints outside
 * prod creates the file (a verifier never does); in prod the operator provides the key. Null when there is none.
 */
export function checkpointKey(config: Config, { create }: { create: boolean }): CheckpointKey | null {
  if (config.AUDIT_CHECKPOINT_KEY) return keyFromSeed(config.AUDIT_CHECKPOINT_KEY);
  const file = keyFilePath(config);
  if (!fs.existsSync(file)) {
    if (!create || config.production) return null;
    createSeedFile(file);
  }
  return keyFromSeed(readSeed(file));
}

export const missingKeyText = (config: Config) =>
  `No audit checkpoint key: set AUDIT_CHECKPOINT_KEY (64 hex digits, e.g. from \`openssl rand -hex 32\`) or put one in ${keyFilePath(config)}`;

export const checkpointDir = (config: Config) =>
  path.resolve(config.AUDIT_CHECKPOINT_DIR ?? path.join(config.DATA_DIR, 'audit-checkpoints'));

export function signCheckpoint(key: CheckpointKey, checkpoint: Checkpoint): string {
  const file: CheckpointFile = {
    checkpoint,
    publicKey: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    signature: sign(null, Buffer.from(canonicalize(checkpoint) as string), key.privateKey).toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Names sort by time: the checkpoint's instant without separators (audit-checkpoint-20260501T130002123Z.json). */
export const checkpointFileName = (at: string) => `${FILE_PREFIX}${at.replace(/[-:.]/g, '')}.json`;

/** Writes a signed checkpoint as a new read-only file (never over another), flushed to disk; answers its name. */
export function writeCheckpointFile(dir: string, at: string, content: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = checkpointFileName(at);
  const tmp = path.join(dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o444);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, path.join(dir, name));
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return name;
}

export interface ReadCheckpoint {
  file: string;
  checkpoint: Checkpoint;
}

/** A checkpoint file that cannot be used as evidence, and why. */
export interface RefusedCheckpoint {
  file: string;
  reason: string;
}

/** The checkpoint files of a folder, oldest first; none when the folder does not exist. */
export function checkpointFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith(FILE_PREFIX) && name.endsWith('.json'))
    .sort();
}

/** Reads one file and checks it is a checkpoint signed by `publicKey`. */
export function readCheckpoint(
  dir: string,
  file: string,
  publicKey: KeyObject,
): ReadCheckpoint | RefusedCheckpoint {
  let parsed: CheckpointFile;
  try {
    const result = fileSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
    if (!result.success) return { file, reason: 'not an audit checkpoint' };
    parsed = result.data;
  } catch {
    return { file, reason: 'unreadable' };
  }
  const { checkpoint, signature } = parsed;
  const keyId = keyIdOf(publicKey);
  if (checkpoint.keyId !== keyId)
    return { file, reason: `signed by another key (key id ${checkpoint.keyId}, expected ${keyId})` };
  const data = Buffer.from(canonicalize(checkpoint) as string);
  if (!verify(null, data, publicKey, Buffer.from(signature, 'base64')))
    return { file, reason: 'bad signature' };
  if (checkpoint.chainCount !== checkpoint.chains.length)
    return { file, reason: 'the count of chains does not match its chains' };
  return { file, checkpoint };
}

const isRefused = (r: ReadCheckpoint | RefusedCheckpoint): r is RefusedCheckpoint => 'reason' in r;

/** Every checkpoint of the folder: the ones that verify (oldest first) and the ones refused. */
export function readCheckpoints(dir: string, publicKey: KeyObject) {
  const read = checkpointFiles(dir).map((file) => readCheckpoint(dir, file, publicKey));
  return {
    checkpoints: read.filter((r): r is ReadCheckpoint => !isRefused(r)),
    refused: read.filter(isRefused),
  };
}

/** The newest checkpoint that verifies, and the newer files refused on the way to it. */
export function latestCheckpoint(dir: string, publicKey: KeyObject) {
  const refused: RefusedCheckpoint[] = [];
  for (const file of checkpointFiles(dir).reverse()) {
    const read = readCheckpoint(dir, file, publicKey);
    if (!isRefused(read)) return { latest: read, refused };
    refused.push(read);
  }
  return { latest: undefined, refused };
}
