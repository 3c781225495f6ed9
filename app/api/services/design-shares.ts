/**
 * "Share for a look" (issue 19, part 5; decision 035). A shopper sends one of their saved designs to
 * one of their album families: the link carries a 128-bit random token and shows the design as it was
 * when sent. Only members of that family (and the sharer) can open it; for anyone else, and once it is
 * revoked, it does not exist (404). Members answer with "Love it" and a one-line note each.
 */
import { randomBytes } from 'node:crypto'
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm'
import { LIVE_SHARES_PER_DESIGN, SHARE_TOKEN } from '../../catalogue/design-share-terms'
import { findOrnamentVariant } from '../../catalogue/ornaments'
import {
  type CreateDesignShareRequest,
  type DesignShareReaction,
  type OwnDesignShare,
  type OwnDesignShares,
  type SharedDesign,
} from '../../contract/design-shares'
import type { Database } from '../db/client'
import { designShareReactions, designShares, families, familyMembers, photos, users } from '../db/schema'
import type { ApiDeps, SessionUser } from '../env'
import { AppError, notFound } from '../errors'
import type { MediaUrls } from '../media/urls'
import { enforceRateLimits, type RateLimitRule } from '../rate-limit'
import { familiesOf } from './album'
import { ownSavedDesignRow, placedPhotos } from './saved-designs'

type ShareRow = typeof designShares.$inferSelect
type Deps = Pick<ApiDeps, 'db' | 'media' | 'rateLimiter' | 'now' | 'config'>

export const designShareRateLimits = {
  /** Links made by one shopper. */
  sharesPerUser: { name: 'design-share-create-user', limit: 30, windowMs: 3600_000, whenStoreDown: 'open' },
  /** "Love it" and note changes by one shopper, across every share. */
  reactionsPerUser: { name: 'design-share-react-user', limit: 120, windowMs: 3600_000, whenStoreDown: 'open' },
} satisfies Record<string, RateLimitRule>

/** The store page a share's link opens. */
export const sharePath = (token: string) => `/photo-products/shared/${token}`

const shareNotFound = () => notFound('Shared design')

async function reactionsOf(db: Database, viewerId: string, shareIds: string[]) {
  if (shareIds.length === 0) return new Map<string, DesignShareReaction[]>()
  const rows = await db
    .select({
      shareId: designShareReactions.shareId,
      userId: designShareReactions.userId,
      firstName: users.firstName,
      loved: designShareReactions.loved,
      note: designShareReactions.note,
      updatedAt: designShareReactions.updatedAt,
    })
    .from(designShareReactions)
    .innerJoin(users, eq(users.id, designShareReactions.userId))
    .where(inArray(designShareReactions.shareId, shareIds))
    .orderBy(desc(designShareReactions.updatedAt), desc(designShareReactions.userId))
  const byShare = new Map<string, DesignShareReaction[]>()
  for (const row of rows) {
    const list = byShare.get(row.shareId) ?? []
    list.push({ firstName: row.firstName, loved: row.loved, note: row.note, mine: row.userId === viewerId, updatedAt: row.updatedAt.toISOString() })
    byShare.set(row.shareId, list)
  }
  return byShare
}

/** GET /v1/photo-products-design-shares?designId=: the design's live shares with their answers, and where it can go. */
export async function listDesignShares(deps: Pick<Deps, 'db' | 'config'>, user: SessionUser, designId: string): Promise<OwnDesignShares> {
  const { db } = deps
  await ownSavedDesignRow(db, user, designId)
  const rows = await db
    .select({ share: designShares, familyName: families.name })
    .from(designShares)
    .innerJoin(families, eq(families.id, designShares.familyId))
    .where(and(eq(designShares.designId, designId), eq(designShares.userId, user.id), isNull(designShares.revokedAt)))
    .orderBy(desc(designShares.createdAt), desc(designShares.id))
  const reactions = await reactionsOf(
    db,
    user.id,
    rows.map((r) => r.share.id),
  )
  return {
    families: await familiesOf(db, user.id),
    shares: rows.map(({ share, familyName }) => ownShareOf(deps.config.publicUrl, share, familyName, reactions.get(share.id) ?? [])),
  }
}

const ownShareOf = (publicUrl: string, share: ShareRow, familyName: string, reactions: DesignShareReaction[]): OwnDesignShare => ({
  token: share.token,
  path: sharePath(share.token),
  url: new URL(sharePath(share.token), publicUrl).href,
  designId: share.designId,
  family: { id: share.familyId, name: familyName },
  createdAt: share.createdAt.toISOString(),
  reactions,
})

/** Which family a new share is for: the one named (if it is the shopper's), or their only one. */
async function familyToShareWith(db: Database, user: SessionUser, familyId: string | undefined) {
  const mine = await familiesOf(db, user.id)
  if (familyId) {
    const family = mine.find((f) => f.id === familyId)
    if (!family) throw notFound('Family')
    return family
  }
  if (mine.length === 1) return mine[0]!
  if (mine.length === 0) throw new AppError('rule_broken', 'You are not in an album family yet, so there is no one to send this design to')
  throw new AppError('validation_failed', 'Choose which family to send it to', [{ path: 'body.familyId', message: 'Choose which family to send it to' }])
}

/** POST /v1/photo-products-design-shares: a new link to the design as it is now. Nothing is written when it is refused. */
export async function createDesignShare(deps: Deps, user: SessionUser, input: CreateDesignShareRequest): Promise<OwnDesignShare> {
  const { db, now } = deps
  const design = await ownSavedDesignRow(db, user, input.designId)
  const family = await familyToShareWith(db, user, input.familyId)
  const photoIds = [...new Set(Object.values(design.body.photos))]
  if (photoIds.length === 0) throw new AppError('rule_broken', 'Choose photos for your design before you send it to your family')
  // The family can see its own album's photos, and no others: a design that uses others is refused, not shown with holes.
  const inAlbum = await db
    .select({ id: photos.id })
    .from(photos)
    .where(and(inArray(photos.id, photoIds), eq(photos.familyId, family.id)))
  const unseen = photoIds.length - inAlbum.length
  if (unseen > 0) {
    throw new AppError(
      'rule_broken',
      `${unseen === 1 ? 'One photo in this design is' : `${unseen} photos in this design are`} not in ${family.name}’s album (your own uploads, or another family’s photos), so your family could not see ${unseen === 1 ? 'it' : 'them'}. Use photos from ${family.name}’s album to send it.`,
    )
  }
  const [live] = await db
    .select({ n: count() })
    .from(designShares)
    .where(and(eq(designShares.designId, design.id), isNull(designShares.revokedAt)))
  if ((live?.n ?? 0) >= LIVE_SHARES_PER_DESIGN) {
    throw new AppError('rule_broken', `This design already has ${LIVE_SHARES_PER_DESIGN} family links; stop one before sending another`)
  }
  await enforceRateLimits(deps.rateLimiter, [{ rule: designShareRateLimits.sharesPerUser, key: user.id }], now())
  const { photos: chosen, transforms, backSideId, text } = design.body
  const [share] = await db
    .insert(designShares)
    .values({
      token: randomBytes(16).toString('base64url'),
      designId: design.id,
      userId: user.id,
      familyId: family.id,
      variantId: design.variantId,
      body: {
        photos: chosen,
        transforms: Object.fromEntries(Object.entries(transforms).filter(([cell]) => chosen[cell])),
        backSideId,
        // The personal lines are part of what the family is asked to look at.
        ...(text ? { text } : {}),
      },
      createdAt: now(),
    })
    .returning()
  return ownShareOf(deps.config.publicUrl, share!, family.name, [])
}

/** A live share the shopper may open: theirs, or one sent to a family they are in now. Anything else is not found. */
async function visibleShare(db: Database, user: SessionUser, token: string) {
  if (!SHARE_TOKEN.test(token)) throw shareNotFound()
  const [row] = await db
    .select({ share: designShares, familyName: families.name, sharerFirstName: users.firstName, member: familyMembers.userId })
    .from(designShares)
    .innerJoin(families, eq(families.id, designShares.familyId))
    .innerJoin(users, eq(users.id, designShares.userId))
    .leftJoin(familyMembers, and(eq(familyMembers.familyId, designShares.familyId), eq(familyMembers.userId, user.id)))
    .where(and(eq(designShares.token, token), isNull(designShares.revokedAt)))
  if (!row || (row.share.userId !== user.id && !row.member)) throw shareNotFound()
  return row
}

async function sharedDesignView(db: Database, media: MediaUrls, user: SessionUser, seen: Awaited<ReturnType<typeof visibleShare>>): Promise<SharedDesign> {
  const { share } = seen
  const ids = [...new Set(Object.values(share.body.photos))]
  // Still in the family's album: a photo deleted since drops out, as in saved designs.
  const rows =
    ids.length > 0
      ? await db
          .select({ id: photos.id, width: photos.width, height: photos.height, focalX: photos.focalX, focalY: photos.focalY })
          .from(photos)
          .where(and(inArray(photos.id, ids), eq(photos.familyId, share.familyId)))
      : []
  const { photos: shown, transforms } = placedPhotos(media, share.body, new Map(rows.map((r) => [r.id, r])))
  const reactions = await reactionsOf(db, user.id, [share.id])
  return {
    token: share.token,
    sharerFirstName: seen.sharerFirstName,
    familyName: seen.familyName,
    isSharer: share.userId === user.id,
    variantId: share.variantId,
    shapeName: findOrnamentVariant(share.variantId)?.name ?? 'Photo',
    photos: shown,
    transforms,
    text: share.body.text ?? null,
    sharedAt: share.createdAt.toISOString(),
    reactions: reactions.get(share.id) ?? [],
  }
}

export async function getSharedDesign(deps: Deps, user: SessionUser, token: string) {
  return sharedDesignView(deps.db, deps.media, user, await visibleShare(deps.db, user, token))
}

/** DELETE /v1/photo-products-design-shares/:token, by its sharer only: the link stops working at once. */
export async function revokeDesignShare(deps: Deps, user: SessionUser, token: string) {
  if (!SHARE_TOKEN.test(token)) throw shareNotFound()
  const [revoked] = await deps.db
    .update(designShares)
    .set({ revokedAt: deps.now() })
    .where(and(eq(designShares.token, token), eq(designShares.userId, user.id), isNull(designShares.revokedAt)))
    .returning({ designId: designShares.designId })
  if (!revoked) throw shareNotFound()
  return listDesignShares(deps, user, revoked.designId)
}

type Reaction = { loved: boolean } | { note: string | null }

/** A member's "Love it" or note: set, replaced or cleared; the row goes when nothing is left in it. */
export async function reactToSharedDesign(deps: Deps, user: SessionUser, token: string, change: Reaction) {
  const { db, now } = deps
  const seen = await visibleShare(db, user, token)
  if (seen.share.userId === user.id) throw new AppError('rule_broken', 'You sent this design: your family’s answers show here, and in the designer')
  await enforceRateLimits(deps.rateLimiter, [{ rule: designShareRateLimits.reactionsPerUser, key: user.id }], now())
  const key = and(eq(designShareReactions.shareId, seen.share.id), eq(designShareReactions.userId, user.id))
  await db.transaction(async (tx) => {
    const setting = 'loved' in change ? change.loved : change.note !== null
    if (setting) {
      await tx
        .insert(designShareReactions)
        .values({ shareId: seen.share.id, userId: user.id, loved: false, note: null, ...change, createdAt: now(), updatedAt: now() })
        .onConflictDoUpdate({ target: [designShareReactions.shareId, designShareReactions.userId], set: { ...change, updatedAt: now() } })
    } else {
      await tx
        .update(designShareReactions)
        .set({ ...change, updatedAt: now() })
        .where(key)
      await tx.delete(designShareReactions).where(and(key, eq(designShareReactions.loved, false), isNull(designShareReactions.note)))
    }
  })
  return sharedDesignView(db, deps.media, user, seen)
}
