/**
 * The photo-products cart, checkout sessions and orders on the wire (SPEC.md §3, §4, §5, §7).
 * Amounts in totals are whole cents; the metadata prices are dollars, as SPEC.md §3 has them.
 */
import { appliedBundleSchema } from './bundles'
import { printAreaSchema, sourceImageSchema } from './designs'
import { personalTextSchema } from './personal-line'
import { emailAddress, giftMessage, optionalEmailAddress, personName, phoneNumber } from './field-messages'
import { storedUsAddressSchema, usAddress } from './us-address'
import { shippingMethodIds } from '../catalogue/shipping'
import { isoDaySchema } from './shipping'
import { z } from './zod'

/** SPEC.md §5: a cart item's provider must be PRINTIFY. */
export const cartItemProviders = ['PRINTIFY'] as const

export { LOCAL_TEST_CARDS, MAX_LINES_PER_CART, MAX_PARCELS_PER_CART, MAX_QUANTITY_PER_LINE } from '../catalogue/cart-terms'
import { MAX_LINES_PER_CART, MAX_PARCELS_PER_CART, MAX_QUANTITY_PER_LINE } from '../catalogue/cart-terms'

const boundedText = (name: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: `${name} is required` })
    .max(max, { error: `${name} must be at most ${max} characters` })
const url = (name: string) => z.string().max(2048, { error: `${name} is too long` })
const wholeNumber = (name: string) =>
  z
    .number()
    .int({ error: `${name} must be a whole number` })
    .positive({ error: `${name} must be a whole number` })
    .max(2 ** 31 - 1)
const dollars = (name: string) =>
  z
    .number()
    .nonnegative({ error: `${name} cannot be negative` })
    .max(100_000, { error: `${name} is too large` })

export const selectedColorSchema = z.object({
  label: boundedText('selectedColor.label', 64),
  value: boundedText('selectedColor.value', 64),
  maskImageUrl: url('selectedColor.maskImageUrl').regex(/^(https?:\/\/[^\s"'<>]+|\/[^\s"'<>]*)$/, {
    error: 'selectedColor.maskImageUrl must be an http(s) URL or a path on this site',
  }),
})

/** SPEC.md §3: every metadata field of a photo product cart item. */
export const cartItemMetadataSchema = z.object({
  providerProductId: wholeNumber('providerProductId'),
  variantId: wholeNumber('variantId'),
  printProviderId: wholeNumber('printProviderId'),
  title: boundedText('title', 200),
  price: dollars('price'),
  salePrice: dollars('salePrice'),
  previewCdnUrl: url('previewCdnUrl'),
  previewCdnUrls: z.array(url('previewCdnUrls')).max(8, { error: 'At most 8 preview images' }),
  sourceImages: z.array(sourceImageSchema).max(8, { error: 'At most 8 source images' }),
  printAreas: z.array(printAreaSchema).min(1, { error: 'At least one print area is required' }).max(8, { error: 'At most 8 print areas' }),
  designTemplateId: wholeNumber('designTemplateId').optional(),
  pseudoTemplateId: z.string().max(64).optional(),
  selectedColor: selectedColorSchema.optional(),
  /** The personal line of the design (the server records its preview's; one sent must be that one). */
  text: personalTextSchema.optional(),
})
export type CartItemMetadata = z.infer<typeof cartItemMetadataSchema>

export const addCartItemRequestSchema = z.object({
  itemIdentifier: z
    .string()
    .trim()
    .min(1, { error: 'itemIdentifier is required' })
    .max(128, { error: 'itemIdentifier must be at most 128 characters' })
    .regex(/^[\w:.-]+$/, { error: 'itemIdentifier may hold letters, digits and _ : . - only' }),
  provider: z.enum(cartItemProviders, { error: 'provider must be PRINTIFY' }),
  metadata: cartItemMetadataSchema,
  quantity: z
    .number()
    .int({ error: `quantity must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` })
    .min(1, { error: `quantity must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` })
    .max(MAX_QUANTITY_PER_LINE, { error: `quantity must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` })
    .optional(),
})
export type AddCartItemRequest = z.infer<typeof addCartItemRequestSchema>

export const quantitySchema = z
  .number({ error: 'quantity must be a whole number' })
  .int({ error: `quantity must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` })
  .min(1, { error: `quantity must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` })
  .max(MAX_QUANTITY_PER_LINE, { error: `quantity must be a whole number from 1 to ${MAX_QUANTITY_PER_LINE}` })

export const updateCartItemRequestSchema = z.object({ quantity: quantitySchema })
export const cartItemParamsSchema = z.object({ id: z.uuid({ error: 'Cart item id must be a UUID' }) })

/** SPEC.md §4: a cart can be resumed or abandoned. The transitions live in app/api/services/cart-states.ts. */
export const cartStatuses = ['active', 'abandoned', 'checked_out'] as const
export type CartStatus = (typeof cartStatuses)[number]

export const cartItemSchema = z.object({
  id: z.uuid(),
  itemIdentifier: z.string(),
  provider: z.enum(cartItemProviders),
  quantity: z.number().int(),
  /** The metadata as the server recorded it: catalogue prices and the server's own print files. */
  metadata: cartItemMetadataSchema,
  previewId: z.uuid(),
  backSideId: z.string(),
  /** Whole cents, from the catalogue: price × quantity and salePrice × quantity. */
  lineTotalCents: z.number().int(),
  lineSaleTotalCents: z.number().int(),
  addedAt: z.string(),
})
export type CartItem = z.infer<typeof cartItemSchema>

const totalsTaxSchema = z.object({ state: z.string(), estimated: z.boolean(), source: z.enum(['table', 'stripe']) })

/** A parcel's share of the totals (catalogue/pricing.ts, ParcelTotals): the totals' money is the sum of these. */
export const parcelTotalsSchema = z.object({
  /** 'own' for the parcel to the address the checkout asks for, else the address book entry's id. */
  key: z.string(),
  shippingMethod: z.enum(shippingMethodIds),
  itemCount: z.number().int(),
  /** Its goods at sale prices less its share of the bundle savings. */
  goodsCents: z.number().int(),
  bundleSavingsCents: z.number().int(),
  shippingCents: z.number().int(),
  creditsCents: z.number().int(),
  taxCents: z.number().int(),
  tax: totalsTaxSchema.nullable(),
})

export const totalsSchema = z.object({
  currency: z.literal('usd'),
  itemCount: z.number().int(),
  /** At list price. */
  subtotalCents: z.number().int(),
  saleSavingsCents: z.number().int(),
  /** Off the sale prices for complete bundle sets (0 and [] on sessions and orders made before bundles). */
  bundleSavingsCents: z.number().int().default(0),
  bundles: z.array(appliedBundleSchema).default([]),
  /** The shipping these totals charge (sessions and orders made before the choice shipped standard). */
  shippingMethod: z.enum(shippingMethodIds).default('standard'),
  shippingCents: z.number().int(),
  creditsCents: z.number().int(),
  totalCents: z.number().int(),
  /** How much more (at sale price, after bundle savings) ships free; 0 when it already does. */
  freeShippingRemainingCents: z.number().int(),
  /** Sales tax, included in totalCents (0 and null on sessions and orders made before sales tax, and while no address is known). */
  taxCents: z.number().int().default(0),
  /** Where the tax is for, whether it is still an estimate, and who computed it (the state table, or Stripe Tax). */
  tax: totalsTaxSchema.nullable().default(null),
  /** One per parcel, the shopper's own first (empty on sessions and orders made before parcels: one parcel, the whole). */
  parcels: z.array(parcelTotalsSchema).default([]),
})
export type CartTotals = z.infer<typeof totalsSchema>

/** Which lines, and how many of each, a parcel holds. */
const parcelItemsSchema = z.array(z.object({ cartItemId: z.uuid(), quantity: z.number().int() }))

/**
 * A parcel of the cart (decision 055): the shopper's own (key 'own', to the address the checkout asks for; it
 * holds whatever no other parcel does) or one to an address book entry. Its money is totals.parcels' entry with
 * the same key.
 */
export const cartParcelSchema = z.object({
  key: z.string(),
  /** The address book entry; null for the shopper's own parcel. */
  addressId: z.uuid().nullable(),
  /** The entry's name ("Grandma Rose"); null for the shopper's own. */
  label: z.string().nullable(),
  address: z.object({ name: z.string(), line1: z.string(), line2: z.string(), city: z.string(), state: z.string(), postalCode: z.string() }).nullable(),
  shippingMethod: z.enum(shippingMethodIds),
  /** '' for none. */
  giftMessage: z.string(),
  recipientEmail: z.string(),
  items: parcelItemsSchema,
  /** What each method would cost this parcel. */
  shippingOptions: z.array(z.object({ method: z.enum(shippingMethodIds), priceCents: z.number().int() })),
})
export type CartParcel = z.infer<typeof cartParcelSchema>

export const cartSchema = z.object({
  id: z.uuid(),
  status: z.enum(cartStatuses),
  items: z.array(cartItemSchema),
  totals: totalsSchema,
  /** The shopper's store-credit balance; totals.creditsCents is the part of it this cart would use. */
  availableCreditCents: z.number().int(),
  /** What each shipping method would cost this cart (totals charge the chosen one, totals.shippingMethod). */
  shippingOptions: z.array(z.object({ method: z.enum(shippingMethodIds), priceCents: z.number().int() })),
  /** Where the cart ships: the shopper's own parcel first (when it holds anything), then one per address book entry. */
  parcels: z.array(cartParcelSchema),
  updatedAt: z.string(),
})
export type Cart = z.infer<typeof cartSchema>

/** One parcel to an address book entry, as the shopper asks for it. */
export const cartParcelChoiceSchema = z
  .object({
    addressId: z.uuid({ error: 'addressId must be the id of an address in your address book' }),
    shippingMethod: z.enum(shippingMethodIds, { error: `Choose a shipping method: ${shippingMethodIds.join(' or ')}` }).default('standard'),
    giftMessage: giftMessage(),
    recipientEmail: optionalEmailAddress(),
    items: z
      .array(z.object({ cartItemId: z.uuid({ error: 'cartItemId must be the id of a line in your cart' }), quantity: quantitySchema }))
      .min(1, { error: 'Choose at least one ornament for this address' })
      .max(MAX_LINES_PER_CART, { error: `A parcel holds at most ${MAX_LINES_PER_CART} designs` }),
  })
  .superRefine((parcel, context) => {
    const seen = new Set<string>()
    parcel.items.forEach((item, i) => {
      if (seen.has(item.cartItemId)) context.addIssue({ code: 'custom', path: ['items', i, 'cartItemId'], message: 'Each design appears once in a parcel' })
      seen.add(item.cartItemId)
    })
  })
export type CartParcelChoice = z.infer<typeof cartParcelChoiceSchema>

/** PUT parcels: the parcels to address book entries, all of them (what they do not hold ships to the shopper). */
export const setCartParcelsRequestSchema = z
  .object({
    parcels: z.array(cartParcelChoiceSchema).max(MAX_PARCELS_PER_CART, { error: `An order ships to at most ${MAX_PARCELS_PER_CART} other addresses` }),
  })
  .superRefine(({ parcels }, context) => {
    const seen = new Set<string>()
    parcels.forEach((parcel, i) => {
      if (seen.has(parcel.addressId)) context.addIssue({ code: 'custom', path: ['parcels', i, 'addressId'], message: 'Each address gets one parcel' })
      seen.add(parcel.addressId)
    })
  })

export const setCartShippingRequestSchema = z.object({
  method: z.enum(shippingMethodIds, { error: `Choose a shipping method: ${shippingMethodIds.join(' or ')}` }),
})

export const addCartItemResponseSchema = z.object({ item: cartItemSchema, cart: cartSchema, created: z.boolean() })

// ---------------------------------------------------------------------------------------------
// Checkout sessions

export const checkoutSessionStatuses = ['open', 'processing', 'paid', 'failed', 'expired'] as const
export type CheckoutSessionStatus = (typeof checkoutSessionStatuses)[number]

export const checkoutSessionParamsSchema = z.object({ id: z.uuid({ error: 'Checkout session id must be a UUID' }) })

export const checkoutLineSchema = z.object({
  cartItemId: z.uuid(),
  title: z.string(),
  variantId: z.number().int(),
  quantity: z.number().int(),
  unitAmountCents: z.number().int(),
  unitListAmountCents: z.number().int(),
  previewCdnUrl: z.string(),
  /** The design's personal line, when it has one. */
  text: personalTextSchema.optional(),
})
export type CheckoutLine = z.infer<typeof checkoutLineSchema>

const shippingAddressFields = {
  name: personName(),
  email: emailAddress(),
  phone: phoneNumber(),
  country: z.literal('US', { error: 'We ship to the United States only' }),
}

/** A shipping address the checkout takes, held to the one address rule (us-address.ts), as the address book is. */
export const shippingAddressSchema = usAddress(shippingAddressFields)
export type ShippingAddress = z.infer<typeof shippingAddressSchema>

/** Which line, and how many of it, a parcel holds. */
export type ParcelItem = { cartItemId: string; quantity: number }

/**
 * A parcel as a checkout session keeps it (checkout_sessions.parcels; app/api/services/parcel-plans.ts), in totals.parcels' order: the order's
 * parcels are made from these. The shopper's own has no address until the payment page collects it.
 */
export type SessionParcel = {
  key: string
  addressId: string | null
  label: string | null
  shippingAddress: ShippingAddress | null
  shippingMethod: (typeof shippingMethodIds)[number]
  arrivesBy: string | null
  items: ParcelItem[]
  giftMessage: string | null
  recipientEmail: string | null
}

export const checkoutSessionSchema = z.object({
  id: z.uuid(),
  /** 'egift' sessions pay for an e-gift (issue 7): no cart, no shipping address. */
  purpose: z.enum(['cart', 'egift']),
  cartId: z.uuid().nullable(),
  provider: z.enum(['local', 'stripe']),
  status: z.enum(checkoutSessionStatuses),
  /** Where to send the shopper to pay (the local checkout page or Stripe's hosted page). */
  url: z.string(),
  lines: z.array(checkoutLineSchema),
  totals: totalsSchema,
  /** The day the order is promised by (YYYY-MM-DD, for the shopper's time zone when the checkout began); null for an e-gift. */
  arrivesBy: isoDaySchema.nullable(),
  /** Set when the session was paid and fulfilled. */
  orderId: z.uuid().nullable(),
  /** The last refusal, e.g. a declined card, for the local checkout page. */
  lastError: z.string().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
  /** Where it ships besides the shopper's own address (entries of their address book), in totals.parcels' order. */
  parcels: z
    .array(
      z.object({
        key: z.string(),
        label: z.string().nullable(),
        city: z.string().nullable(),
        state: z.string().nullable(),
        shippingMethod: z.enum(shippingMethodIds),
        arrivesBy: isoDaySchema.nullable(),
        itemCount: z.number().int(),
      }),
    )
    .default([]),
})
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>

export const localPaymentRequestSchema = z.object({
  cardNumber: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, { error: 'Enter the card number (12 to 19 digits)' })),
  /** Required when paying for a cart; an e-gift ships nothing. */
  shippingAddress: shippingAddressSchema.optional(),
})

// ---------------------------------------------------------------------------------------------
// Orders

export const orderStatuses = ['paid', 'submitted', 'in_production', 'shipped', 'submission_failed', 'canceled', 'refunded'] as const
export type OrderStatus = (typeof orderStatuses)[number]

export const orderParamsSchema = z.object({ id: z.uuid({ error: 'Order id must be a UUID' }) })
export const parcelParamsSchema = z.object({
  id: z.uuid({ error: 'Order id must be a UUID' }),
  parcelId: z.uuid({ error: 'Parcel id must be a UUID' }),
})

/** One box a parcel left in, with its own carrier and tracking; a parcel may ship in several. */
export const parcelShipmentSchema = z.object({
  /** 1, 2, … in the order the shipments were heard of. */
  position: z.number().int(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** The parcel's lines (by cart item) in this box; null when the print provider did not say. */
  items: parcelItemsSchema.nullable(),
  shippedAt: z.string(),
  deliveredAt: z.string().nullable(),
})
export type ParcelShipment = z.infer<typeof parcelShipmentSchema>

/** One parcel of an order: what goes to one address, with the print provider's own status and tracking for it. */
export const orderParcelSchema = z.object({
  id: z.uuid(),
  /** 1, 2, … in the order the parcels are listed. */
  position: z.number().int(),
  /** The address book entry it went to and that entry's name then ("Grandma Rose"); null for the shopper's own address. */
  addressId: z.uuid().nullable(),
  label: z.string().nullable(),
  /** A parcel to a saved address may have no recipient e-mail (the address book's is optional). */
  shippingAddress: storedUsAddressSchema.nullable(),
  shippingMethod: z.enum(shippingMethodIds),
  arrivesBy: isoDaySchema.nullable(),
  /** The order's lines (by cart item) and how many of each this parcel holds. */
  items: parcelItemsSchema,
  /** Printed on the parcel's packing slip; null for none. */
  giftMessage: z.string().nullable(),
  /** The recipient told "a gift is on its way" when it ships; null for nobody. */
  recipientEmail: z.string().nullable(),
  status: z.enum(orderStatuses),
  /** The latest shipment's tracking (every shipment's is in `shipments`). */
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** When the store released the parcel to the printer's production (its hold ended; issue 50); null before. */
  sentToProductionAt: z.string().nullable(),
  /** Every box the parcel left in, oldest first. */
  shipments: z.array(parcelShipmentSchema),
  /** Ornaments in the parcel, and how many of them have shipped (counted by line and quantity). */
  quantity: z.number().int(),
  shippedQuantity: z.number().int(),
  /** "1 of 2 shipped" while part of the parcel has shipped; null before any and once all of it has. */
  shippingProgress: z.string().nullable(),
})
export type OrderParcel = z.infer<typeof orderParcelSchema>

export const orderSchema = z.object({
  id: z.uuid(),
  /** A short human reference, e.g. KS-7F3A2C. */
  reference: z.string(),
  status: z.enum(orderStatuses),
  checkoutSessionId: z.uuid(),
  lines: z.array(checkoutLineSchema),
  totals: totalsSchema,
  shippingAddress: storedUsAddressSchema.nullable(),
  /** The day promised at checkout (YYYY-MM-DD); null for orders from before promises. */
  arrivesBy: isoDaySchema.nullable(),
  provider: z.enum(['local', 'printify']),
  providerOrderId: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** Where the order goes, one parcel per address; the order's status and tracking above are worked out from them. */
  parcels: z.array(orderParcelSchema),
  /**
   * What the shopper's card was charged, whole cents, when the payment provider charged another amount than
   * totals.totalCents (the order is flagged for a person to look at); null when it charged the total.
   */
  chargedCents: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Order = z.infer<typeof orderSchema>
export const ordersResponseSchema = z.object({ orders: z.array(orderSchema) })

/** Order again: the order's designs back in the cart at today's prices. */
export const orderAgainResponseSchema = z.object({
  cart: cartSchema,
  /** Designs put in the cart now. */
  added: z.number().int(),
  /** Designs that were in the cart already (left as they were). */
  alreadyInCart: z.number().int(),
})
export type OrderAgainResponse = z.infer<typeof orderAgainResponseSchema>

/**
 * Optional: `year` replaces every year in the designs' personal lines (issue 19, part 4), and those
 * designs are rendered again with it before they go in the cart. Absent: the designs as they were.
 */
export const orderAgainRequestSchema = z
  .object({
    year: z
      .number({ error: 'year must be a whole number' })
      .int({ error: 'year must be a whole number' })
      .min(2000, { error: 'year must be between 2000 and 2099' })
      .max(2099, { error: 'year must be between 2000 and 2099' })
      .optional(),
  })
  .optional()
export type OrderAgainRequest = z.infer<typeof orderAgainRequestSchema>
