const base = 'inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-6 py-2.5 font-semibold focus-visible:outline-cream'

/** Buttons on the pine and cranberry panels: cream instead of cranberry, and a cream focus ring (the pine one would vanish). */
export const onDarkButton = {
  solid: (text: 'text-pine-dark' | 'text-cranberry-dark') => `${base} bg-cream ${text} hover:bg-white`,
  outline: `${base} border-2 border-cream/70 text-cream hover:border-cream hover:bg-cream/10`,
}
