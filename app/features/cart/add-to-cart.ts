import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useRef, useState } from 'react'
import type { AddCartItemRequest } from '~/contract/cart'
import type { GeneratedPreview } from '~/contract/designs'
import { track } from '~/lib/analytics'
import { findOrnamentVariant, ornamentProduct, variantTitle } from '~/lib/ornaments'
import { notify } from '~/lib/toast'
import { addCartItem, cartQuery } from './cart.functions'

/** The cart line for a design the server previewed: its print files and mockups, with the catalogue's prices. */
export function cartItemFromPreview(preview: GeneratedPreview): AddCartItemRequest | null {
  const variant = findOrnamentVariant(preview.variantId)
  const [front] = preview.images
  if (!variant || !front) return null
  return {
    // The same preview is the same line: a second tap or a retried request finds it already there.
    itemIdentifier: `preview-${preview.previewId}`,
    provider: 'PRINTIFY',
    quantity: 1,
    metadata: {
      providerProductId: ornamentProduct.providerProductId,
      variantId: variant.id,
      printProviderId: ornamentProduct.printProviderId,
      title: variantTitle(variant),
      price: variant.price,
      salePrice: variant.salePrice,
      previewCdnUrl: front,
      previewCdnUrls: preview.images,
      sourceImages: preview.sourceImages,
      printAreas: preview.printAreas,
      pseudoTemplateId: preview.pseudoTemplateId,
    },
  }
}

/** Adds a previewed design to the cart, then shows the cart. One request at a time, however often it is tapped. */
export function useAddToCart() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [adding, setAdding] = useState(false)
  const busy = useRef(false)

  const add = useCallback(
    async (preview: GeneratedPreview) => {
      const request = cartItemFromPreview(preview)
      if (busy.current || !request) return
      busy.current = true
      setAdding(true)
      try {
        const outcome = await addCartItem({ data: request })
        if (!outcome.ok) {
          notify.error(`We couldn’t add your ornament to the cart: ${outcome.error.message}`, { label: 'Retry', onClick: () => void add(preview) })
          return
        }
        const { item, cart, created } = outcome.data
        queryClient.setQueryData(cartQuery().queryKey, cart)
        track('DidAddProductToCart', {
          itemIdentifier: item.itemIdentifier,
          variantId: item.metadata.variantId,
          previewId: item.previewId,
          quantity: item.quantity,
          salePrice: item.metadata.salePrice,
          cartItemCount: cart.totals.itemCount,
          created,
        })
        notify.success(created ? `Your ${item.metadata.title} is in your cart` : `Your ${item.metadata.title} was already in your cart`)
        await navigate({ to: '/photo-products/cart' })
      } catch (error) {
        notify.error(`We couldn’t add your ornament to the cart: ${error instanceof Error ? error.message : 'Unknown error'}`)
      } finally {
        busy.current = false
        setAdding(false)
      }
    },
    [navigate, queryClient],
  )

  return { add, adding }
}
