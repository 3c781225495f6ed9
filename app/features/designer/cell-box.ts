/** Where a cell sits on the preview's canvas, as percentages, for overlays drawn over it. */
export function cellBox(
  template: { width: number; height: number },
  cell: { absoluteCenterX: number; absoluteCenterY: number; width: number; height: number },
) {
  return {
    left: `${((cell.absoluteCenterX - cell.width / 2) / template.width) * 100}%`,
    top: `${((cell.absoluteCenterY - cell.height / 2) / template.height) * 100}%`,
    width: `${(cell.width / template.width) * 100}%`,
    height: `${(cell.height / template.height) * 100}%`,
  }
}
