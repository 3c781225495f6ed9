import type { Database } from '../db/client'
import { findUser } from './accounts'
import { families, familyMembers, users } from '../db/schema'

/** The demo families of DEMO_MODE: fixed ids, so seeding is idempotent and links stay stable. */
export const demoAccounts = [
  {
    user: { id: '0b6e7d0e-4c1b-4f43-9a0e-5d1f6f0a0001', email: 'maya@demo.keepsake.example', firstName: 'Maya', lastName: 'Rivera' },
    family: { id: '7d2c3f5a-1e8b-4c6d-8f0a-2b3c4d5e0001', name: 'The Rivera Family' },
  },
  {
    user: { id: '0b6e7d0e-4c1b-4f43-9a0e-5d1f6f0a0002', email: 'sam@demo.keepsake.example', firstName: 'Sam', lastName: 'Okafor' },
    family: { id: '7d2c3f5a-1e8b-4c6d-8f0a-2b3c4d5e0002', name: 'The Okafor Family' },
  },
] as const

export async function seedDemoAccounts(db: Database) {
  await db.transaction(async (tx) => {
    for (const { user, family } of demoAccounts) {
      await tx.insert(users).values(user).onConflictDoNothing()
      await tx.insert(families).values(family).onConflictDoNothing()
      await tx.insert(familyMembers).values({ familyId: family.id, userId: user.id, role: 'owner' }).onConflictDoNothing()
    }
  })
}

export function listDemoUsers() {
  return demoAccounts.map(({ user, family }) => ({ ...user, familyName: family.name }))
}

export async function isDemoUser(db: Database, userId: string) {
  if (!demoAccounts.some((a) => a.user.id === userId)) return false
  return (await findUser(db, userId)) !== null
}
