import { useState } from 'react'
import type { GeneratedPreview } from '~/contract/designs'
import { DesignerDialog } from './DesignerDialog'

type PreviewResultDialogProps = {
  result: GeneratedPreview | null
  shapeName: string
  backSideName: string
  onClose: () => void
}

function Mockup({ src, alt, label }: { src: string; alt: string; label: string }) {
  const [loaded, setLoaded] = useState(false)
  return (
    <figure className="overflow-hidden rounded-card bg-cream-card shadow-card">
      <img
        src={src}
        alt={alt}
        onLoad={() => setLoaded(true)}
        className={`block h-auto w-full ${loaded ? '' : 'min-h-48 animate-pulse bg-cream-deep'}`}
        data-testid="mockup-image"
      />
      <figcaption className="px-4 py-2 text-sm font-semibold text-ink-soft">{label}</figcaption>
    </figure>
  )
}

/** The server's mockups of the design: what will be printed, front and back. */
export function PreviewResultDialog({ result, shapeName, backSideName, onClose }: PreviewResultDialogProps) {
  const [front, back] = result?.images ?? []
  return (
    <DesignerDialog
      size="fit"
      open={result !== null}
      onClose={onClose}
      title={`Your ${shapeName} ornaments`}
      description="This is what we’ll print: your photos at full resolution, cut to shape."
    >
      <div className="grid gap-4 md:grid-cols-2" data-testid="preview-result">
        {front ? <Mockup src={front} alt={`The front of your ${shapeName} ornament pair with your two photos`} label="Front" /> : null}
        {back ? <Mockup src={back} alt={`The back of your ${shapeName} ornament pair: ${backSideName}`} label={`Back — ${backSideName}`} /> : null}
      </div>
      <p className="mt-4 text-sm text-ink-soft">
        Colours on screen can look a little brighter than on the glossy print. Something not right? Close this and keep adjusting.
      </p>
      <div className="mt-4 flex justify-end">
        <button type="button" onClick={onClose} className="min-h-11 rounded-full border-2 border-ink/15 bg-cream-card px-6 font-semibold text-ink hover:border-ink/30">
          Keep editing
        </button>
      </div>
    </DesignerDialog>
  )
}
