import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { photoCells, templateForVariant, type PseudoTemplate } from '~/catalogue/ornaments'
import type { PersonalText } from '~/catalogue/personal-line'
import type { LinePath } from '~/compositor/line-paths'
import { clampTransform, IDENTITY_TRANSFORM, photoMatrix } from '~/compositor/layout'
import type { SavedDesign } from '~/contract/saved-designs'

/**
 * The design's personal lines as paths, once opentype.js and the fonts have loaded (lazily: the
 * lists these thumbnails sit in do not wait for them). None while loading, or if a font cannot load.
 */
function useLinePaths(template: PseudoTemplate | undefined, text: PersonalText | null | undefined): LinePath[] {
  const { data } = useQuery({
    queryKey: ['line-paths', template?.id, text],
    queryFn: () => import('~/compositor/line-paths').then(({ linePaths }) => linePaths(template!, text)),
    enabled: Boolean(template && text),
    staleTime: Number.POSITIVE_INFINITY,
  })
  return data ?? []
}

/**
 * A saved design drawn small: each photo's small rendition placed in its cell with the same layout
 * maths as the live preview and the print (compositor/layout.ts), each ornament's personal line laid
 * out by the print's layout function from the same font, inside the ornaments' silhouette, with the
 * rims on top. Pattern cells and the back are left out; an empty cell shows as cream.
 */
export function DesignThumbnail({
  design,
  className = '',
}: {
  design: Pick<SavedDesign, 'variantId' | 'photos' | 'transforms'> & { text?: PersonalText | null }
  className?: string
}) {
  const template = templateForVariant(design.variantId)
  const id = useId().replaceAll(':', '')
  const lines = useLinePaths(template, design.text)
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
        {lines.map((line) => (
          <clipPath key={line.cellId} id={`${id}-${line.cellId}`}>
            <rect {...line.box} />
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
        {lines.map((line) => (
          <path
            key={line.cellId}
            d={line.d}
            fill={line.fill}
            {...(line.halo ? { stroke: line.halo.stroke, strokeWidth: line.halo.width, strokeLinejoin: 'round' as const, paintOrder: 'stroke' } : {})}
            clipPath={`url(#${id}-${line.cellId})`}
            data-testid="design-thumbnail-line"
          />
        ))}
      </g>
      <image href={template.templateImageUrl} width={template.width} height={template.height} />
    </svg>
  )
}
