import { and, eq, lt } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../../db/database.ts';
import { oidcStore } from '../../../db/schema.ts';

const cleanupIntervalMs = 10 * 60_000;

/**
 * oidc-provider storage (sessions, interactions, grants, codes, tokens) in table oidc_store, so the
 * built-in IdP keeps its sessions across restarts and every API node sees the same state.
 * One instance per model name, as oidc-provider asks.
 */
export class DrizzleOidcAdapter implements Adapter {
  private static lastCleanup = 0;

  private readonly db: Db;
  private readonly model: string;

  constructor(db: Db, model: string) {
    this.db = db;
    this.model = model;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const values = {
      payload,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      userCode: payload.userCode ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      consumedAt: null,
    };
    await this.db
      .insert(oidcStore)
      .values({ model: this.model, id, ...values })
      .onConflictDoUpdate({ target: [oidcStore.model, oidcStore.id], set: values });
    await this.cleanupNowAndThen();
  }

  find(id: string) {
    return this.findWhere(eq(oidcStore.id, id));
  }

  findByUid(uid: string) {
    return this.findWhere(eq(oidcStore.uid, uid));
  }

  findByUserCode(userCode: string) {
    return this.findWhere(eq(oidcStore.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oidcStore)
      .set({ consumedAt: new Date() })
      .where(and(eq(oidcStore.model, this.model), eq(oidcStore.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oidcStore).where(and(eq(oidcStore.model, this.model), eq(oidcStore.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    // Every artefact of the grant goes, whichever model instance is asked.
    await this.db.delete(oidcStore).where(eq(oidcStore.grantId, grantId));
  }

  private async findWhere(where: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select()
      .from(oidcStore)
      .where(and(eq(oidcStore.model, this.model), where));
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    const payload = row.payload as AdapterPayload;
    return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
  }

  /** Expired rows are never returned; deleting them occasionally keeps the table small. */
  private async cleanupNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - DrizzleOidcAdapter.lastCleanup < cleanupIntervalMs) return;
    DrizzleOidcAdapter.lastCleanup = now;
    await this.db.delete(oidcStore).where(lt(oidcStore.expiresAt, new Date(now)));
  }
}
