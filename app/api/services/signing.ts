import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { AppConfig } from '../../../app.config'
import type { Database } from '../db/client'
import { appSecrets } from '../db/schema'

const KEY_NAME = 'signing-key'
const keys = new WeakMap<Database, Promise<Buffer>>()

/**
 * The HMAC key for album cursors and local upload URLs: SESSION_SECRET when set, otherwise one the
 * API makes once and keeps in its database, so every process of one deployment signs alike.
 */
export function signingKey(db: Database, config: Pick<AppConfig, 'sessionSecret'>): Promise<Buffer> {
  if (config.sessionSecret) return Promise.resolve(Buffer.from(config.sessionSecret))
  let key = keys.get(db)
  if (!key) {
    key = (async () => {
      await db
        .insert(appSecrets)
        .values({ name: KEY_NAME, value: randomBytes(32).toString('base64url') })
        .onConflictDoNothing()
      const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, KEY_NAME))
      return Buffer.from(row!.value)
    })()
    key.catch(() => keys.delete(db))
    keys.set(db, key)
  }
  return key
}

export const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url')

export function verify(key: Buffer, payload: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, payload))
  const given = Buffer.from(signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
}
