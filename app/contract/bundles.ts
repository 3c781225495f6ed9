/**
 * Bundles (SPEC.md §7 GET /v1/loop/bundles): a set of ornaments sold together for less than their
 * sale prices added up. Every amount is whole cents, derived on the server from the catalogue. The
 * cart applies a bundle's price by itself once it holds the bundle's items (totals.bundles).
 */
import { ornamentShapes, type OrnamentShape } from '../catalogue/ornaments'
import type { AppliedBundle } from '../catalogue/pricing'
import { z } from './zod'

export const bundleShapeSchema = z.enum(ornamentShapes as readonly [OrnamentShape, ...OrnamentShape[]])

export const bundleItemSchema = z.object({
  variantId: z.number().int(),
  quantity: z.number().int().positive(),
  /** The catalogue's name of the variant, e.g. "Star Photo Ornament". */
  title: z.string(),
  shape: bundleShapeSchema,
})

export const bundleSchema = z.object({
  /** A slug, e.g. "whole-set". */
  id: z.string(),
  title: z.string(),
  description: z.string(),
  items: z.array(bundleItemSchema),
  currency: z.literal('usd'),
  /** What one complete set costs in a cart. */
  bundlePriceCents: z.number().int(),
  /** The items' current sale prices added up. */
  regularPriceCents: z.number().int(),
  /** regularPriceCents − bundlePriceCents, saved on every complete set. */
  savingsCents: z.number().int(),
  /** One shape per ornament in the set (repeated for a quantity above 1), for artwork. */
  shapes: z.array(bundleShapeSchema),
})
export type Bundle = z.infer<typeof bundleSchema>

export const bundlesResponseSchema = z.object({ bundles: z.array(bundleSchema) })
export type BundlesResponse = z.infer<typeof bundlesResponseSchema>

/** A bundle a cart's totals applied (catalogue/pricing's AppliedBundle, which the schema must describe). */
export const appliedBundleSchema = z.object({
  id: z.string(),
  title: z.string(),
  sets: z.number().int().positive(),
  savingsCents: z.number().int(),
}) satisfies z.ZodType<AppliedBundle>
