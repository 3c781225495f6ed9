import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useCallback, useRef, useState } from 'react'
import type { AddCartItemRequest } from '~/contract/cart'
import type { GeneratedPreview } from '~/contract/designs'
import { track } from '~/lib/analytics'
import { findOrnamentVariant, ornamentProduct, variantTitle } from '~/catalogue/ornaments'
import { wordsForStatus } from '~/lib/error-status'
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

/** Why the design did not go into the cart, for the place the shopper is looking (issue 15, bug 14). */
export type AddToCartProblem = { message: string; signedOut: boolean }

/**
 * Adds a previewed design to the cart, then shows the cart. One request at a time, however often it is
 * tapped. A failure is kept as `problem`, for the preview dialog to show inside itself with the action
 * that fixes it: a toast would be drawn beneath the modal, where it cannot be seen or clicked.
 */
export function useAddToCart() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [adding, setAdding] = useState(false)
  const [problem, setProblem] = useState<AddToCartProblem | null>(null)
  const busy = useRef(false)

  const add = useCallback(
    async (preview: GeneratedPreview) => {
      const request = cartItemFromPreview(preview)
      if (busy.current || !request) return
      busy.current = true
      setAdding(true)
      setProblem(null)
      try {
        const outcome = await addCartItem({ data: request })
        if (!outcome.ok) {
          const signedOut = outcome.error.status === 401
          setProblem({
            signedOut,
            message: signedOut
              ? 'You’re signed out, so your ornament isn’t in the cart yet. Sign in and add it again: your design is kept on this device.'
              : `We couldn’t add your ornament to the cart. ${outcome.error.message}`,
          })
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
        await navigate({ to: '/photo-products/cart' }).catch(() => undefined)
        // Raised once the cart shows, however long that took: the page's own toast, not a note of the closed dialog.
        notify.success(created ? `Your ${item.metadata.title} is in your cart` : `Your ${item.metadata.title} was already in your cart`)
      } catch {
        setProblem({ signedOut: false, message: `We couldn’t add your ornament to the cart. ${wordsForStatus(0)}` })
      } finally {
        busy.current = false
        setAdding(false)
      }
    },
    [navigate, queryClient],
  )

  return { add, adding, problem }
}
