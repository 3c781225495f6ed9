import { createFileRoute, notFound } from '@tanstack/react-router'
import { designerSearch, variantIdParam } from '~/lib/search-params'
import { designTemplatesQuery } from '~/features/designer/api/design-templates.functions'
import { OrnamentDesigner } from '~/features/designer/OrnamentDesigner'
import { photoProductQuery } from '~/features/photo-products/photo-products.functions'
import { findOrnamentVariant } from '~/catalogue/ornament-variants'
import { shippingCalendarQuery } from '~/features/cart/shipping.functions'

/** The variant in the path: one of the three ornaments, written exactly as its number (no sign, no leading zero). */
function variantOf(param: string) {
  const variant = variantIdParam.safeParse(param).success ? findOrnamentVariant(Number(param)) : undefined
  return variant && String(variant.id) === param ? variant : undefined
}

export const Route = createFileRoute('/photo-products/ornaments/$variantId')({
  // ?photos=chosen: arriving from the photo picker, whose chosen photos replace an older draft's.
  validateSearch: designerSearch,
  beforeLoad: ({ params }) => {
    const variant = variantOf(params.variantId)
    if (!variant) throw notFound()
    return { variant }
  },
  loader: ({ context: { queryClient, variant } }) =>
    Promise.all([
      queryClient.ensureQueryData(designTemplatesQuery(variant.id)),
      queryClient.ensureQueryData(photoProductQuery()),
      queryClient.prefetchQuery(shippingCalendarQuery()),
    ]),
  head: ({ params }) => ({ meta: [{ title: `Design your ${variantOf(params.variantId)?.name ?? 'photo'} ornament — Keepsake` }] }),
  component: DesignerPage,
})

function DesignerPage() {
  const { variant } = Route.useRouteContext()
  const { photos } = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <OrnamentDesigner
      key={variant.id}
      variantId={variant.id}
      preferChosenPhotos={photos === 'chosen'}
      onChosenPhotosUsed={() => void navigate({ search: {}, replace: true })}
    />
  )
}
