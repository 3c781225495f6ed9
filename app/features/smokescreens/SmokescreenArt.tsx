import { useId, type JSX } from 'react'
import type { SmokescreenProduct } from '~/contract/smokescreens'

const ink = '#5e524c'
const paper = '#fffdf9'
const edge = '#e6d9c3'

/** A family snapshot (sky, sun, hill, a grown-up and a child), clipped to a rounded frame. */
function Snapshot({ x, y, w, h, sky = '#f7ecd2' }: { x: number; y: number; w: number; h: number; sky?: string }) {
  // useId's punctuation is not safe inside url(#…) everywhere.
  const clip = `snap${useId().replace(/[^\w-]/g, '')}`
  const p = (fx: number, fy: number) => `${x + w * fx} ${y + h * fy}`
  return (
    <g>
      <clipPath id={clip}>
        <rect x={x} y={y} width={w} height={h} rx={Math.min(w, h) * 0.08} />
      </clipPath>
      <g clipPath={`url(#${clip})`}>
        <rect x={x} y={y} width={w} height={h} fill={sky} />
        <circle cx={x + w * 0.8} cy={y + h * 0.24} r={h * 0.11} fill="#e2b957" />
        <path d={`M${p(0, 0.74)} Q${p(0.3, 0.52)} ${p(0.62, 0.7)} T${p(1, 0.62)} V${y + h} H${x} Z`} fill="#2f7d5f" opacity="0.85" />
        <circle cx={x + w * 0.36} cy={y + h * 0.66} r={h * 0.12} fill="#e2b9a0" />
        <path d={`M${p(0.16, 1.02)} C${p(0.18, 0.7)} ${p(0.54, 0.7)} ${p(0.56, 1.02)} Z`} fill="#a3213a" />
        <circle cx={x + w * 0.645} cy={y + h * 0.78} r={h * 0.09} fill="#d9a98c" />
        <path d={`M${p(0.5, 1.02)} C${p(0.52, 0.8)} ${p(0.77, 0.8)} ${p(0.79, 1.02)} Z`} fill="#1f5c45" />
      </g>
    </g>
  )
}

function Shadow({ y = 90, rx = 40 }: { y?: number; rx?: number }) {
  return <ellipse cx="60" cy={y} rx={rx} ry="3.5" fill="#2b2320" opacity="0.12" />
}

function Calendar() {
  return (
    <>
      <Shadow />
      <rect x="24" y="12" width="72" height="76" rx="5" fill={paper} stroke={edge} />
      <rect x="24" y="12" width="72" height="11" rx="5" fill="#a3213a" />
      <rect x="24" y="18" width="72" height="5" fill="#a3213a" />
      {[38, 60, 82].map((cx) => (
        <rect key={cx} x={cx - 2} y="7" width="4" height="10" rx="2" fill={ink} />
      ))}
      <Snapshot x={30} y={28} w={60} h={30} />
      {[0, 1, 2].map((row) =>
        [0, 1, 2, 3, 4, 5, 6].map((col) => (
          <rect
            key={`${row}-${col}`}
            x={31 + col * 8.4}
            y={64 + row * 7.5}
            width="5"
            height="4.5"
            rx="1"
            fill={row === 1 && col === 4 ? '#a3213a' : '#e6d9c3'}
          />
        )),
      )}
    </>
  )
}

function Canvas() {
  return (
    <>
      <Shadow y={88} rx={44} />
      <path d="M96 16 L102 20 V80 L96 78 Z" fill="#15422f" />
      <path d="M22 78 L96 78 L102 80 L28 82 Z" fill="#1f5c45" opacity="0.8" />
      <Snapshot x={22} y={16} w={74} h={62} sky="#fbf6ee" />
      <rect x="22" y="16" width="74" height="62" rx="3" fill="none" stroke={paper} strokeWidth="1.5" opacity="0.6" />
      <circle cx="59" cy="9" r="2" fill={ink} />
      <path d="M59 9 L30 17 M59 9 L88 17" stroke={ink} strokeWidth="0.8" fill="none" opacity="0.6" />
    </>
  )
}

function Mug() {
  return (
    <>
      <Shadow y={88} rx={34} />
      <path d="M84 40 h5 a13 13 0 0 1 0 26 h-5" fill="none" stroke={edge} strokeWidth="7" />
      <path d="M84 40 h5 a13 13 0 0 1 0 26 h-5" fill="none" stroke={paper} strokeWidth="4" />
      <path d="M26 26 H86 V78 a8 8 0 0 1 -8 8 H34 a8 8 0 0 1 -8 -8 Z" fill={paper} stroke={edge} />
      <ellipse cx="56" cy="26" rx="30" ry="4" fill="#f3e9d8" stroke={edge} />
      <Snapshot x={33} y={38} w={46} h={36} />
      {[44, 56, 68].map((x, i) => (
        <path
          key={x}
          d={`M${x} ${18 - (i % 2) * 2} c-4 -4 4 -6 0 -10 c-4 -4 4 -6 0 -8`}
          fill="none"
          stroke="#c9962b"
          strokeWidth="2"
          strokeLinecap="round"
          opacity="0.55"
        />
      ))}
    </>
  )
}

function Book() {
  return (
    <>
      <Shadow y={88} rx={48} />
      <path d="M60 86 Q36 78 10 82 V22 Q36 18 60 26 Q84 18 110 22 V82 Q84 78 60 86 Z" fill="#1f5c45" />
      <path d="M60 82 Q38 74 14 78 V20 Q38 15 60 24 Z" fill={paper} stroke={edge} />
      <path d="M60 82 Q82 74 106 78 V20 Q82 15 60 24 Z" fill={paper} stroke={edge} />
      <Snapshot x={20} y={28} w={34} h={28} />
      <Snapshot x={66} y={28} w={34} h={28} sky="#e2efe8" />
      {[62, 68].map((y) => (
        <g key={y}>
          <rect x="21" y={y} width={y === 62 ? 30 : 22} height="2.5" rx="1.25" fill={edge} />
          <rect x="67" y={y} width={y === 62 ? 28 : 18} height="2.5" rx="1.25" fill={edge} />
        </g>
      ))}
      <path d="M60 24 V82" stroke={edge} strokeWidth="1.5" />
    </>
  )
}

function Puzzle() {
  // The cuts between the 3×3 pieces, each with a knob halfway along every piece's edge.
  const down = (x: number) => `M${x} 12 V20 a4 4 0 0 1 0 8 V44 a4 4 0 0 0 0 8 V68 a4 4 0 0 1 0 8 V84`
  const across = (y: number) => `M18 ${y} H26 a4 4 0 0 0 8 0 H50 a4 4 0 0 1 8 0 H74 a4 4 0 0 0 8 0 H90`
  return (
    <>
      <Shadow y={90} rx={44} />
      <Snapshot x={18} y={12} w={72} h={72} sky="#dcebf2" />
      {[down(42), down(66), across(36), across(60)].map((d) => (
        <path key={d} d={d} fill="none" stroke={paper} strokeWidth="1.4" opacity="0.95" />
      ))}
      <rect x="18" y="12" width="72" height="72" rx="5" fill="none" stroke={edge} />
      <rect x="66.5" y="12.5" width="23" height="23" rx="2" fill="#f3e9d8" stroke="#c9b89c" strokeDasharray="2 2" />
      <g transform="translate(92 2) rotate(14)">
        <rect x="1.5" y="2.5" width="24" height="24" rx="2" fill="#2b2320" opacity="0.15" />
        <rect width="24" height="24" rx="2" fill="#dcebf2" stroke={paper} strokeWidth="1.4" />
        <circle cx="15" cy="8" r="3.5" fill="#e2b957" />
        <path d="M0 17 Q10 12 24 15 V24 H0 Z" fill="#2f7d5f" opacity="0.85" />
      </g>
    </>
  )
}

const drawings: Record<SmokescreenProduct, () => JSX.Element> = {
  'photo-calendar': Calendar,
  'canvas-print': Canvas,
  'photo-mug': Mug,
  'photo-book': Book,
  'jigsaw-puzzle': Puzzle,
}

/** A small drawing of a product that is not sold yet; decorative, as its card names it. */
export function SmokescreenArt({ product, className = 'w-28' }: { product: SmokescreenProduct; className?: string }) {
  const Drawing = drawings[product]
  return (
    <svg viewBox="0 0 120 96" className={className} aria-hidden="true" focusable="false">
      <Drawing />
    </svg>
  )
}
