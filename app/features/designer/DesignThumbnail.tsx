import { useId } from 'react'
import { photoCells, templateForVariant } from '~/catalogue/ornaments'
import { clampTransform, IDENTITY_TRANSFORM, photoMatrix } from '~/compositor/layout'
import type { SavedDesign } from '~/contract/saved-designs'

/**
 * A saved design drawn small: each photo's small rendition placed in its cell with the same layout
 * maths as the live preview and the print (compositor/layout.ts), inside the ornaments' silhouette,
 * with the rims on top. Pattern cells and the back are left out; an empty cell shows as cream.
 */
export function DesignThumbnail({ design, className = '' }: { design: Pick<SavedDesign, 'variantId' | 'photos' | 'transforms'>; className?: string }) {
  const template = templateForVariant(design.variantId)
  const id = useId().replaceAll(':', '')
  if (!template) return null
  return (
    <svg viewBox={`0 0 ${template.width} ${template.height}`} className={className} aria-hidden="true" data-testid="design-thumbnail">
      <defs>
        <mask id={`${id}-ink`} style={{ maskType: 'alpha' }}>
          <image href={template.maskImageUrl} width={template.width} height={template.height} />
        </mask>
        {photoCells(template).map((cell) => (
          <clipPath key={cell.id} id={`${id}-${cell.id}`}>
            <rect x={cell.absoluteCenterX - cell.width / 2} y={cell.absoluteCenterY - cell.height / 2} width={cell.width} height={cell.height} />
          </clipPath>
        ))}
      </defs>
      <g mask={`url(#${id}-ink)`}>
        <rect width={template.width} height={template.height} fill="#efe4d2" />
        {photoCells(template).map((cell) => {
          const photo = design.photos[cell.id]
          if (!photo) return null
          const m = photoMatrix(cell, photo, clampTransform(cell, photo, design.transforms[cell.id] ?? IDENTITY_TRANSFORM))
          return (
            <g key={cell.id} clipPath={`url(#${id}-${cell.id})`}>
              <image
                href={photo.thumbnailUrl}
                width={photo.width}
                height={photo.height}
                preserveAspectRatio="none"
                transform={`matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.tx} ${m.ty})`}
              />
            </g>
          )
        })}
      </g>
      <image href={template.templateImageUrl} width={template.width} height={template.height} />
    </svg>
  )
}
