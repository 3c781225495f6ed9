import { z } from './zod'

export const photoProductVariantSchema = z.object({
  id: z.number().int(),
  shape: z.string(),
  name: z.string(),
  title: z.string(),
  price: z.number(),
  salePrice: z.number(),
})

export const photoProductSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  provider: z.literal('PRINTIFY'),
  providerProductId: z.number().int(),
  printProviderId: z.number().int(),
  numberOfUserImages: z.number().int(),
  variants: z.array(photoProductVariantSchema),
})
export type PhotoProduct = z.infer<typeof photoProductSchema>

export const photoProductParamsSchema = z.object({
  id: z.string().min(1).max(64),
})
