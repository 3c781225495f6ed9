import { randomBytes, randomInt } from 'node:crypto'
import type { Database } from '../db/client'
import { findUser } from '../services/accounts'
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

const guestFirstNames = ['Priya', 'Noah', 'Lena', 'Omar', 'Grace', 'Theo', 'Ines', 'Kai'] as const

/**
 * A new demo shopper (demo mode only): a fresh account with no orders and no referral history, in the
 * Okafor family so it has an album to design from. It lets anyone try the friend's side of an invite.
 */
export async function createDemoGuest(db: Database) {
  const firstName = guestFirstNames[randomInt(guestFirstNames.length)]!
  const family = demoAccounts[1].family
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: `guest-${randomBytes(5).toString('hex')}@demo.keepsake.example`, firstName, lastName: 'Guest' })
      .returning({ id: users.id })
    await tx.insert(familyMembers).values({ familyId: family.id, userId: user!.id, role: 'member' })
    return user!.id
  })
}
