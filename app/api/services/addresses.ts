/**
 * The address book (issue 33, item 1). Every read and write is scoped to the signed-in shopper: an
 * address of another shopper (their family included) is not found, and a refused call changes nothing.
 * Saving takes a lock on the shopper's row, so two saves at once cannot both pass the limit.
 */
import { and, asc, eq, sql } from 'drizzle-orm'
import { MAX_SAVED_ADDRESSES, type AddressBook, type AddressBookEntry, type addressBookEntryRequestSchema } from '../../contract/addresses'
import type { z } from '../../contract/zod'
import type { Database } from '../db/client'
import { savedAddresses, users } from '../db/schema'
import type { SessionUser } from '../env'
import { AppError, notFound } from '../errors'

type AddressInput = z.output<typeof addressBookEntryRequestSchema>
type AddressRow = typeof savedAddresses.$inferSelect

function entryOf({ userId: _userId, createdAt, updatedAt, ...fields }: AddressRow): AddressBookEntry {
  return { ...fields, country: 'US', createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() }
}

export async function listAddresses(db: Database, user: SessionUser): Promise<AddressBook> {
  const rows = await db
    .select()
    .from(savedAddresses)
    .where(eq(savedAddresses.userId, user.id))
    .orderBy(asc(sql`lower(${savedAddresses.label})`), asc(savedAddresses.createdAt), asc(savedAddresses.id))
  return { addresses: rows.map(entryOf), limit: MAX_SAVED_ADDRESSES }
}

/** The shopper's own address; another shopper's, or none, is not found. */
export async function ownAddress(db: Database, user: SessionUser, id: string): Promise<AddressBookEntry> {
  const [row] = await db
    .select()
    .from(savedAddresses)
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, user.id)))
  if (!row) throw notFound('Address')
  return entryOf(row)
}

export async function createAddress(db: Database, user: SessionUser, input: AddressInput, now: Date): Promise<AddressBookEntry> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update')
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(savedAddresses)
      .where(eq(savedAddresses.userId, user.id))
    if ((count?.n ?? 0) >= MAX_SAVED_ADDRESSES) {
      throw new AppError(
        'rule_broken',
        `Your address book is full: it keeps up to ${MAX_SAVED_ADDRESSES} addresses. Remove one you no longer need, then save this one.`,
      )
    }
    const [row] = await tx
      .insert(savedAddresses)
      .values({ userId: user.id, ...input, createdAt: now, updatedAt: now })
      .returning()
    return entryOf(row!)
  })
}

export async function updateAddress(db: Database, user: SessionUser, id: string, input: AddressInput, now: Date): Promise<AddressBookEntry> {
  const [row] = await db
    .update(savedAddresses)
    .set({ ...input, updatedAt: now })
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, user.id)))
    .returning()
  if (!row) throw notFound('Address')
  return entryOf(row)
}

export async function deleteAddress(db: Database, user: SessionUser, id: string): Promise<AddressBook> {
  const deleted = await db
    .delete(savedAddresses)
    .where(and(eq(savedAddresses.id, id), eq(savedAddresses.userId, user.id)))
    .returning({ id: savedAddresses.id })
  if (deleted.length === 0) throw notFound('Address')
  return listAddresses(db, user)
}
