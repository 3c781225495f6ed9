import { PhotoPicker } from '~/features/photos/PhotoPicker'
import type { ChosenPhoto } from '~/lib/photo-conversion'
import { DesignerDialog } from './DesignerDialog'

type PhotoPickerDialogProps = {
  /** "left ornament" — whose photo is being chosen; null when closed. */
  slotName: string | null
  onClose: () => void
  onPick: (photo: ChosenPhoto) => void
}

/** The photo picker of the photos page, in a sheet, choosing exactly one photo for one ornament. */
export function PhotoPickerDialog({ slotName, onClose, onPick }: PhotoPickerDialogProps) {
  return (
    <DesignerDialog
      open={slotName !== null}
      onClose={onClose}
      title={`Choose a photo for the ${slotName ?? 'ornament'}`}
      description="Tap a photo to place it; you can move and zoom it afterwards."
    >
      {/* Nothing is pre-selected, so the first tap is the choice. No view props: the tab and place stay
          in the picker, and the designer's URL is left alone. */}
      <PhotoPicker max={1} selected={[]} onChange={(next) => next[0] && onPick(next[0])} />
    </DesignerDialog>
  )
}
