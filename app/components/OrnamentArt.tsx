import type { OrnamentShape } from '~/catalogue/ornaments'

const outlines: Record<OrnamentShape, string> = {
  tree: 'M60 8 L104 70 H84 L110 108 H86 L112 142 H8 L34 108 H10 L36 70 H16 Z',
  star: 'M60 6 L75 46 L118 48 L84 74 L96 116 L60 92 L24 116 L36 74 L2 48 L45 46 Z',
  stocking: 'M30 6 H82 V78 C82 80 84 82 86 84 L104 100 C116 112 110 136 92 140 C82 142 74 138 66 130 L34 100 C30 96 30 92 30 88 Z',
}

const palettes: Record<OrnamentShape, [string, string]> = {
  tree: ['#1f5c45', '#2f7d5f'],
  star: ['#c9962b', '#e2b957'],
  stocking: ['#a3213a', '#c7435a'],
}

/** An ornament of the given shape holding two warm "photo" panels, drawn in the theme's colours. */
export function OrnamentArt({ shape, className = 'w-40' }: { shape: OrnamentShape; className?: string }) {
  const [dark, light] = palettes[shape]
  const id = `ornament-${shape}`
  return (
    <svg viewBox="0 0 120 150" className={className} role="img" aria-label={`${shape} ornament`}>
      <defs>
        <linearGradient id={`${id}-fill`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={light} />
          <stop offset="1" stopColor={dark} />
        </linearGradient>
        <clipPath id={`${id}-clip`}>
          <path d={outlines[shape]} />
        </clipPath>
      </defs>
      <path d={outlines[shape]} fill={`url(#${id}-fill)`} />
      <g clipPath={`url(#${id}-clip)`} opacity="0.9">
        <rect x="14" y="44" width="44" height="58" rx="6" fill="#fbf6ee" />
        <rect x="62" y="44" width="44" height="58" rx="6" fill="#f7ecd2" />
        <circle cx="36" cy="64" r="9" fill="#e2b9a0" />
        <path d="M20 100c2-14 10-20 16-20s14 6 16 20z" fill="#a3213a" opacity="0.75" />
        <circle cx="84" cy="66" r="8" fill="#d9a98c" />
        <path d="M68 100c2-12 9-18 16-18s14 6 16 18z" fill="#1f5c45" opacity="0.75" />
      </g>
      <path d={outlines[shape]} fill="none" stroke="#fbf6ee" strokeWidth="3" strokeLinejoin="round" opacity="0.8" />
    </svg>
  )
}
