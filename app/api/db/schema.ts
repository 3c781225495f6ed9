import { sql } from 'drizzle-orm'
import { orderStatuses } from '../../contract/cart'
import { creditReasons, rewardStatuses } from '../../contract/referral'
import { shippingMethodIds } from '../../catalogue/shipping'
import { bigserial, boolean, check, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable('users', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  email: text('email').notNull().unique(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull().default(''),
  createdAt: createdAt(),
})

export const families = pgTable('families', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  createdAt: createdAt(),
})

export const familyMembers = pgTable(
  'family_members',
  {
    familyId: uuid('family_id')
      .notNull()
      .references(() => families.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'member'] })
      .notNull()
      .default('member'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.familyId, t.userId] }), index('family_members_user_idx').on(t.userId)],
)

/** A session row is keyed by the SHA-256 of the cookie's token, so a leaked table grants nothing. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
)

/** One-time codes that move a signed-in user from the mobile app into the web store (SPEC.md §7). */
export const transitionTokens = pgTable(
  'transition_tokens',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('transition_tokens_user_idx').on(t.userId)],
)

/**
 * One-time sign-in links e-mailed to an account's address (issue 16). Only the SHA-256 of the link's
 * token is stored; a link is spent once (used_at) and expires 15 minutes after it was made.
 */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A same-site path to land on once signed in. */
    redirect: text('redirect').notNull().default('/photo-products'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('sign_in_links_user_idx').on(t.userId)],
)

/** Writes sent with an Idempotency-Key: the first answer, replayed to a repeat of the same request (app/api/idempotency.ts). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** The signed-in user's id, or signed out `client:` and the client's address (rows before issue 42: 'anonymous'). */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    /** null while the first request is still being handled. */
    status: integer('status'),
    body: text('body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
)

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    properties: jsonb('properties').$type<Record<string, string | number | boolean | null>>().notNull(),
    path: text('path').notNull(),
    url: text('url').notNull(),
    sid: uuid('sid').notNull(),
    uuid: text('uuid'),
    market: text('market'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('analytics_events_name_idx').on(t.name, t.occurredAt)],
)

/** Secrets the API makes for itself when none is configured (signing keys for cursors and upload URLs). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
})

/**
 * A photo: in a family's album, or uploaded by a shopper from their device (no family).
 * Its renditions live in storage under photos/<id>/<rendition>.jpg; width and height are upright.
 */
export const photos = pgTable(
  'photos',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    familyId: uuid('family_id').references(() => families.id, { onDelete: 'cascade' }),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source', { enum: ['album', 'upload'] }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    favorite: boolean('favorite').notNull().default(false),
    recommended: boolean('recommended').notNull().default(false),
    caption: text('caption'),
    /**
     * The subject's centre (sharp's attention strategy, found once when the photo is stored), as fractions
     * 0–1 of the upright width and height; both null for photos stored before it was found (decision 059).
     */
    focalX: doublePrecision('focal_x'),
    focalY: doublePrecision('focal_y'),
    /** ETag of each rendition, by name (small, smartphone, original). */
    etags: jsonb('etags').$type<Record<string, string>>().notNull(),
    /** Milliseconds, as JavaScript keeps them, so a cursor names a capture time exactly. */
    capturedAt: timestamp('captured_at', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('photos_family_captured_idx').on(t.familyId, t.capturedAt.desc(), t.id.desc()),
    index('photos_owner_idx').on(t.ownerUserId, t.source),
    check(
      'photos_focal_point_check',
      sql`(${t.focalX} is null and ${t.focalY} is null) or (${t.focalX} is not null and ${t.focalY} is not null and ${t.focalX} between 0 and 1 and ${t.focalY} between 0 and 1)`,
    ),
  ],
)

/** A signed upload link: single use, expiring, for one object of one content type. */
export const uploads = pgTable(
  'uploads',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storedName: text('stored_name').notNull(),
    objectKey: text('object_key').notNull(),
    contentType: text('content_type').notNull(),
    status: text('status', { enum: ['pending', 'ingesting', 'ingested', 'rejected'] })
      .notNull()
      .default('pending'),
    photoId: uuid('photo_id').references(() => photos.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the ingest began (status ingesting) or finished (ingested). */
    ingestedAt: timestamp('ingested_at', { withTimezone: true }),
  },
  (t) => [index('uploads_user_idx').on(t.userId, t.status)],
)

/**
 * A preview the server rendered for one user: the design, the print files and mockups it stored
 * under previews/<id>/, and the provider's product. The cart accepts print files only from here.
 */
export const previews = pgTable(
  'previews',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').notNull(),
    pseudoTemplateId: text('pseudo_template_id').notNull(),
    backSideId: text('back_side_id').notNull(),
    /** The cells as sent (photo ids and clamped transforms). */
    design: jsonb('design').$type<{ cellId: string; photoId: string; transform: { x: number; y: number; zoom: number; rotation: number } }[]>().notNull(),
    /** The personal line the print file carries (issue 19), or null. */
    text: jsonb('text').$type<import('../../catalogue/personal-line').PersonalText>(),
    printAreas: jsonb('print_areas').$type<{ position: string; imageUrl: string }[]>().notNull(),
    sourceImages: jsonb('source_images').$type<{ cropped: string; original: string }[]>().notNull(),
    images: jsonb('images').$type<string[]>().notNull(),
    provider: text('provider', { enum: ['local', 'printify'] }).notNull(),
    providerProductId: text('provider_product_id').notNull(),
    /**
     * The design's content hash (services/print-files.ts): its print files are rendered once per hash, when it goes into a
     * cart, and kept under print-files/<hash>/. Null for a preview made before issue 50, whose print files are its own.
     */
    designHash: text('design_hash'),
    createdAt: createdAt(),
  },
  (t) => [index('previews_user_idx').on(t.userId, t.createdAt), index('previews_design_hash_idx').on(t.designHash)],
)

/**
 * A shopper's cart. At most one open cart (active or abandoned) per user; a checked-out cart stays
 * as the record of what was bought. States and transitions: app/api/services/cart-states.ts.
 */
export const carts = pgTable(
  'carts',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['active', 'abandoned', 'checked_out'] })
      .notNull()
      .default('active'),
    /** The shipping the shopper chose (catalogue/shipping.ts); the cart's totals charge it. */
    shippingMethod: text('shipping_method', { enum: shippingMethodIds }).notNull().default('standard'),
    /** Parcels to address book entries (decision 055); what they do not hold ships to the shopper's own address. */
    parcels: jsonb('parcels').$type<import('../../contract/cart').CartParcelChoice[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carts_one_open_per_user')
      .on(t.userId)
      .where(sql`status <> 'checked_out'`),
  ],
)

/** A cart line: one server-made preview (the print files) at catalogue prices. */
export const cartItems = pgTable(
  'cart_items',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    cartId: uuid('cart_id')
      .notNull()
      .references(() => carts.id, { onDelete: 'cascade' }),
    itemIdentifier: text('item_identifier').notNull(),
    provider: text('provider', { enum: ['PRINTIFY'] }).notNull(),
    previewId: uuid('preview_id')
      .notNull()
      .references(() => previews.id, { onDelete: 'restrict' }),
    /** SPEC.md §3 metadata as the server recorded it (catalogue prices, the preview's own files). */
    metadata: jsonb('metadata').$type<import('../../contract/cart').CartItemMetadata>().notNull(),
    quantity: integer('quantity').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cart_items_identifier_uq').on(t.cartId, t.itemIdentifier)],
)

/** A checkout session: the cart's lines and totals frozen when it was created; the order is made from these. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What is being paid for: the cart's ornaments, or an e-gift (issue 7; then there is no cart). */
    purpose: text('purpose', { enum: ['cart', 'egift'] })
      .notNull()
      .default('cart'),
    cartId: uuid('cart_id').references(() => carts.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['local', 'stripe'] }).notNull(),
    providerSessionId: text('provider_session_id').unique(),
    url: text('url').notNull().default(''),
    status: text('status', { enum: ['open', 'processing', 'paid', 'failed', 'expired'] })
      .notNull()
      .default('open'),
    lines: jsonb('lines').$type<import('../../contract/cart').CheckoutLine[]>().notNull(),
    /** Each line's preview, by cart item id, for the order's print files. */
    previewIds: jsonb('preview_ids').$type<Record<string, string>>().notNull(),
    totals: jsonb('totals').$type<import('../../contract/cart').CartTotals>().notNull(),
    shippingAddress: jsonb('shipping_address').$type<import('../../contract/cart').ShippingAddress>(),
    /** The day the order is promised by (YYYY-MM-DD), computed for the shopper's time zone when the checkout began; null for an e-gift. */
    arrivesBy: text('arrives_by'),
    /** The cart's parcels when the checkout began, in totals.parcels' order; null for an e-gift and sessions from before parcels. */
    parcels: jsonb('parcels').$type<import('../../contract/cart').SessionParcel[]>(),
    lastError: text('last_error'),
    /** What the payment provider says it charged (Stripe's amount_total), whole cents; null until it says (and for the local provider). */
    chargedCents: integer('charged_cents'),
    /** Store credit held for this session (totals.creditsCents): reserved at creation, then spent or released once. */
    creditStatus: text('credit_status', { enum: ['none', 'reserved', 'spent', 'released'] })
      .notNull()
      .default('none'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('checkout_sessions_cart_idx').on(t.cartId, t.status), index('checkout_sessions_user_idx').on(t.userId)],
)

/** An order: made exactly once per paid checkout session, then sent to the print provider by a job. */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey(),
    reference: text('reference').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    checkoutSessionId: uuid('checkout_session_id')
      .notNull()
      .unique()
      .references(() => checkoutSessions.id, { onDelete: 'restrict' }),
    status: text('status', { enum: orderStatuses }).notNull().default('paid'),
    lines: jsonb('lines').$type<import('../../contract/cart').CheckoutLine[]>().notNull(),
    /** Print files per line: the preview's provider product and print areas. */
    printItems: jsonb('print_items')
      .$type<
        {
          cartItemId: string
          previewId: string
          variantId: number
          quantity: number
          providerProductId: string
          printAreas: { position: string; imageUrl: string }[]
        }[]
      >()
      .notNull(),
    totals: jsonb('totals').$type<import('../../contract/cart').CartTotals>().notNull(),
    shippingAddress: jsonb('shipping_address').$type<import('../../contract/cart').ShippingAddress>(),
    provider: text('provider', { enum: ['local', 'printify'] }).notNull(),
    /** The day the shopper was promised at checkout (YYYY-MM-DD); null for orders from before promises. */
    arrivesBy: text('arrives_by'),
    providerOrderId: text('provider_order_id'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    /**
     * Set only when the payment provider charged another amount than totals.totalCents (issue 42, item 6): the order is
     * flagged, and its receipt says what was charged. Null when it charged the total (or said nothing).
     */
    chargedCents: integer('charged_cents'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('orders_user_idx').on(t.userId, t.createdAt)],
)

/**
 * A parcel of an order: what goes to one address, and the print provider's order for it (its own status,
 * provider id and tracking). The provider's external id is the parcel's id; an order's first parcel has the
 * order's own id, so an order of one parcel is known to the provider (and to its jobs and e-mails) as before
 * parcels. The order's status and tracking are worked out from its parcels (fulfilment.ts, syncOrderFromParcels).
 */
export const orderParcels = pgTable(
  'order_parcels',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** 1, 2, …: the order the parcels are listed in. */
    position: integer('position').notNull(),
    /** The address book entry it went to (no reference: the entry may be removed later) and its name then; null for the shopper's own. */
    addressId: uuid('address_id'),
    label: text('label'),
    shippingAddress: jsonb('shipping_address').$type<import('../../contract/cart').ShippingAddress>(),
    shippingMethod: text('shipping_method', { enum: shippingMethodIds }).notNull().default('standard'),
    /** The day this parcel was promised by (YYYY-MM-DD). */
    arrivesBy: text('arrives_by'),
    /** Which of the order's lines, and how many of each, this parcel holds. */
    items: jsonb('items').$type<{ cartItemId: string; quantity: number }[]>().notNull(),
    /** Printed on the packing slip (no prices); null for none. */
    giftMessage: text('gift_message'),
    /** When set, the recipient gets a short "a gift is on its way" note when the parcel ships. */
    recipientEmail: text('recipient_email'),
    status: text('status', { enum: orderStatuses }).notNull().default('paid'),
    providerOrderId: text('provider_order_id'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    /** When the store asked the provider to start production (Printify's send_to_production), once the order's hold ended. */
    sentToProductionAt: timestamp('sent_to_production_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('order_parcels_position_idx').on(t.orderId, t.position), index('order_parcels_provider_order_idx').on(t.providerOrderId)],
)

/**
 * Each shipment of a parcel, with its own carrier and tracking: a print provider may ship a parcel's lines in
 * several boxes (Printify's `partially-fulfilled`). `key` tells a shipment heard of twice (a webhook and the poll,
 * or a redelivery) from a new one: its tracking number, else its URL. `items` is what it holds; null when the
 * provider did not say, which counts as everything not yet shipped (decision 062).
 */
export const parcelShipments = pgTable(
  'parcel_shipments',
  {
    id: uuid('id').primaryKey(),
    parcelId: uuid('parcel_id')
      .notNull()
      .references(() => orderParcels.id, { onDelete: 'cascade' }),
    /** 1, 2, …: the order the shipments were heard of in. */
    position: integer('position').notNull(),
    key: text('key').notNull(),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    items: jsonb('items').$type<{ cartItemId: string; quantity: number }[]>(),
    shippedAt: timestamp('shipped_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('parcel_shipments_key_idx').on(t.parcelId, t.key), uniqueIndex('parcel_shipments_position_idx').on(t.parcelId, t.position)],
)

/**
 * Printify webhook events already handled, by Printify's event id: a redelivery (Printify retries until it
 * hears 2xx) or a replay is recognised here and changes nothing (docs/decisions/043-printify-webhooks.md).
 */
export const printifyWebhookEvents = pgTable(
  'printify_webhook_events',
  {
    eventId: text('event_id').primaryKey(),
    type: text('type').notNull(),
    /** Printify's order id (resource.id). */
    providerOrderId: text('provider_order_id').notNull(),
    /** What handling it did: applied (the order moved or learnt its tracking) or ignored (nothing to change). */
    outcome: text('outcome', { enum: ['applied', 'ignored'] }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('printify_webhook_events_received_idx').on(t.receivedAt)],
)

/**
 * Durable background jobs (ARCHITECTURE.md): claimed with FOR UPDATE SKIP LOCKED, leased, retried with
 * backoff; a job whose lease ran out (its process died) is claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** At most one job per key (e.g. submit-order:<orderId>). */
    dedupeKey: text('dedupe_key').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** The worker holding the lease (a process id of app/api/services/jobs.ts); only it may renew or finish the run. */
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('jobs_ready_idx').on(t.status, t.runAt)],
)

/**
 * Store credit (issue 6): an append-only ledger. A balance is the sum of a user's entries; every write
 * locks the user's row first and never takes a balance below zero. (reason, reference) is unique per
 * user, so a retried write of the same event is a no-op.
 */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason', { enum: creditReasons }).notNull(),
    /** What the entry is about, e.g. checkout:<sessionId>, redemption:<id>, order:<id>. */
    reference: text('reference').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credit_entries_event_uq').on(t.userId, t.reason, t.reference), index('credit_entries_user_idx').on(t.userId, t.id)],
)

/** Each advocate's stable referral code (made on first use). */
export const referralCodes = pgTable('referral_codes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  code: text('code').notNull().unique(),
  /** A disabled code (abuse) no longer lands or redeems; its existing rewards stand. */
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
})

/** A friend's redemption of an advocate's code; one per friend, ever. States: app/api/services/referral-states.ts. */
export const referralRedemptions = pgTable(
  'referral_redemptions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    advocateUserId: uuid('advocate_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referredUserId: uuid('referred_user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    status: text('status', { enum: rewardStatuses }).notNull().default('pending'),
    creditCents: integer('credit_cents').notNull(),
    rewardCents: integer('reward_cents').notNull(),
    timezone: text('timezone').notNull(),
    /** The friend's first paid order, which approved the reward. */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referral_redemptions_advocate_idx').on(t.advocateUserId, t.createdAt)],
)

/** SPEC.md §6: each referral role's user-action log, and the general one. */
export const referralUserActions = pgTable(
  'referral_user_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    role: text('role', { enum: ['advocate', 'referred', 'general'] }).notNull(),
    action: text('action').notNull(),
    metadata: jsonb('metadata').$type<Record<string, string | number | boolean | null>>().notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The referral code the action is about (the advocate's own, or the friend's remembered one). */
    code: text('code'),
    createdAt: createdAt(),
  },
  (t) => [index('referral_user_actions_role_idx').on(t.role, t.createdAt)],
)

/** The partner offer wall (/fmn, issue 7): offers from the database, seeded in demo mode. */
export const partnerOffers = pgTable('partner_offers', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  partner: text('partner').notNull(),
  reward: text('reward').notNull(),
  summary: text('summary').notNull(),
  terms: jsonb('terms').$type<string[]>().notNull(),
  imageUrl: text('image_url').notNull(),
  imageAlt: text('image_alt').notNull(),
  /** The only place a click may lead: an https URL stored here, never one from a request. */
  targetUrl: text('target_url').notNull(),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
})

/** Every outbound click on an offer (Fmn events), also recorded as a DidClickFmnOffer analytics event. */
export const partnerOfferClicks = pgTable(
  'partner_offer_clicks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    offerId: text('offer_id')
      .notNull()
      .references(() => partnerOffers.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    sid: uuid('sid'),
    fromPath: text('from_path'),
    createdAt: createdAt(),
  },
  (t) => [index('partner_offer_clicks_offer_idx').on(t.offerId, t.createdAt)],
)

/** Smokescreen sign-ups (issue 7): one per (kind, product, shopper or e-mail). */
export const smokescreenSignups = pgTable(
  'smokescreen_signups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: ['waitlist', 'delivery'] }).notNull(),
    product: text('product').notNull(),
    /** user:<id> when signed in, else email:<lower-cased address>. */
    dedupeKey: text('dedupe_key').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    sourcePage: text('source_page'),
    /** The form as submitted (validated). */
    fields: jsonb('fields').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('smokescreen_signups_once').on(t.kind, t.product, t.dedupeKey)],
)

/**
 * E-gifts (issue 7): bought through a checkout session of purpose 'egift'; when it is paid a single-use
 * code is issued (only its SHA-256 is kept here; the recipient's e-mail carries the code) and redeemed
 * once into the redeemer's store-credit ledger.
 */
export const egifts = pgTable(
  'egifts',
  {
    id: uuid('id').primaryKey(),
    purchaserId: uuid('purchaser_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    checkoutSessionId: uuid('checkout_session_id')
      .notNull()
      .unique()
      .references(() => checkoutSessions.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['awaiting_payment', 'issued', 'redeemed', 'cancelled'] })
      .notNull()
      .default('awaiting_payment'),
    amountCents: integer('amount_cents').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    senderName: text('sender_name').notNull(),
    message: text('message').notNull().default(''),
    /** The day to send, in the buyer's time zone (YYYY-MM-DD), and that zone; null = when paid. */
    sendOn: text('send_on'),
    timezone: text('timezone').notNull(),
    codeHash: text('code_hash').unique(),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    emailedAt: timestamp('emailed_at', { withTimezone: true }),
    redeemedBy: uuid('redeemed_by').references(() => users.id, { onDelete: 'set null' }),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('egifts_purchaser_idx').on(t.purchaserId, t.createdAt)],
)

/**
 * Every e-mail the store sends (issue 7). Without SMTP_URL this table is where mail goes (demo mode
 * shows it at /utils/outbox); with it, nodemailer delivers and the row records the outcome.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind').notNull(),
    /** What the e-mail is about, e.g. egift:<id>; unique, so an event is e-mailed once. */
    reference: text('reference').notNull().unique(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status', { enum: ['scheduled', 'sent', 'failed'] })
      .notNull()
      .default('scheduled'),
    transport: text('transport', { enum: ['outbox', 'smtp'] }).notNull(),
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Our Message-ID, fixed before the first SMTP attempt: every attempt sends this one, so receivers can drop a repeat. */
    messageId: text('message_id'),
    /** SMTP attempts begun, and when the last began; recorded before the SMTP conversation starts. */
    smtpAttempts: integer('smtp_attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    providerMessageId: text('provider_message_id'),
    lastError: text('last_error'),
    /**
     * What the e-mail carries that must not stay at rest (a sign-in token, an e-gift code): kept until an SMTP server
     * accepts the e-mail, then replaced in its subject, text and HTML, and this emptied (issue 42, item 13; decision 069).
     */
    secrets: jsonb('secrets').$type<string[]>(),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_emails_created_idx').on(t.createdAt)],
)

/** What a saved design's body holds: photo ids and committed transforms per cell, the back side (contract/saved-designs.ts). */
export type SavedDesignBody = {
  photos: Record<string, string>
  transforms: Record<string, { x: number; y: number; zoom: number; rotation: number }>
  backSideId: string | null
  /** The personal line (issue 19, part 1); bodies saved before it have none. */
  text?: import('../../catalogue/personal-line').PersonalText | null
}

/**
 * A shopper's unfinished design (issue 19): one per user and variant, saved by the designer and resumed
 * on any device. The thumbnail is drawn from the photos' renditions, so nothing else is stored.
 */
export const designDrafts = pgTable(
  'design_drafts',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').notNull(),
    body: jsonb('body').$type<SavedDesignBody>().notNull(),
    createdAt: createdAt(),
    /** When the shopper last changed it (the device's edit time, never later than the server's clock). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('design_drafts_user_variant_uq').on(t.userId, t.variantId)],
)

/**
 * A saved design sent to one of the sharer's families for a look (issue 19, part 5; decision 035).
 * The link's token is 128 random bits (base64url); the body is the design as it was when shared, so
 * later edits do not change what the family sees. Revoked shares keep their row (reactions stay with
 * it) and answer 404; deleting the design deletes its shares.
 */
export const designShares = pgTable(
  'design_shares',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    token: text('token').notNull().unique(),
    designId: uuid('design_id')
      .notNull()
      .references(() => designDrafts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id')
      .notNull()
      .references(() => families.id, { onDelete: 'cascade' }),
    variantId: integer('variant_id').notNull(),
    body: jsonb('body').$type<SavedDesignBody>().notNull(),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('design_shares_design_idx').on(t.designId)],
)

/** One family member's answer to a share: "Love it" and/or a one-line note; the row goes when both are cleared. */
export const designShareReactions = pgTable(
  'design_share_reactions',
  {
    shareId: uuid('share_id')
      .notNull()
      .references(() => designShares.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    loved: boolean('loved').notNull().default(false),
    note: text('note'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shareId, t.userId] })],
)

/** A shipping address a shopper keeps in their address book (issue 33): theirs alone, never their family's. */
export const savedAddresses = pgTable(
  'saved_addresses',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text('label').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    line1: text('line1').notNull(),
    line2: text('line2').notNull().default(''),
    city: text('city').notNull(),
    state: text('state').notNull(),
    postalCode: text('postal_code').notNull(),
    country: text('country').notNull().default('US'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('saved_addresses_user_idx').on(t.userId)],
)
