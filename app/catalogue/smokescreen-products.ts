/** The products Keepsake does not sell yet, by id (SPEC.md's smokescreens). */
export const smokescreenProducts = ['photo-calendar', 'canvas-print', 'photo-mug', 'photo-book', 'jigsaw-puzzle'] as const
export type SmokescreenProduct = (typeof smokescreenProducts)[number]

export type SmokescreenCopy = {
  name: string
  /** "a photo calendar": the name inside a sentence. */
  inSentence: string
  blurb: string
  tint: 'gold' | 'pine' | 'cranberry' | 'cream'
}

/**
 * The products Keepsake does not sell yet (issue 7), as the shopper sees them. The page carries
 * no schema code: this module has no zod.
 */
export const smokescreenCopy = {
  'photo-calendar': {
    name: 'Photo calendar',
    inSentence: 'the photo calendar',
    blurb: 'A family photo for every month, with birthdays and anniversaries marked.',
    tint: 'gold',
  },
  'canvas-print': {
    name: 'Canvas print',
    inSentence: 'the canvas print',
    blurb: 'Your favourite photo stretched over a wooden frame, ready for the wall.',
    tint: 'pine',
  },
  'photo-mug': {
    name: 'Photo mug',
    inSentence: 'the photo mug',
    blurb: 'Morning coffee with the grandkids smiling back. Dishwasher-safe.',
    tint: 'cranberry',
  },
  'photo-book': {
    name: 'Photo book',
    inSentence: 'the photo book',
    blurb: 'The year’s album, printed and bound in the order you lived it.',
    tint: 'cream',
  },
  'jigsaw-puzzle': {
    name: 'Photo puzzle',
    inSentence: 'the photo puzzle',
    blurb: 'A 500-piece jigsaw of a family moment, for a slow Sunday together.',
    tint: 'gold',
  },
} as const satisfies Record<SmokescreenProduct, SmokescreenCopy>

/** The cards' order: the table's. */
export const smokescreenOrder = Object.keys(smokescreenCopy) as SmokescreenProduct[]

export const smokescreenName = (product: string) => (product in smokescreenCopy ? smokescreenCopy[product as SmokescreenProduct].name : product)
