/** Two gift boxes, one for each side of a referral. On a pine background the second box turns gold, so it stays visible. */
export function ReferralArt({ className = 'w-48', on = 'light' }: { className?: string; on?: 'light' | 'pine' }) {
  const [body, lid, ribbon] = on === 'pine' ? ['#c9962b', '#e0b44f', '#fbf6ee'] : ['#1f5c45', '#2f7d5f', '#f7ecd2']
  return (
    <svg viewBox="0 0 200 140" className={className} role="img" aria-label="Two gifts tied with ribbon">
      <rect x="14" y="52" width="80" height="72" rx="8" fill="#a3213a" />
      <rect x="8" y="40" width="92" height="20" rx="6" fill="#c7435a" />
      <rect x="48" y="40" width="12" height="84" fill="#c9962b" />
      <path d="M54 40c-14-18-34-10-24 0zM54 40c14-18 34-10 24 0z" fill="#c9962b" />
      <rect x="112" y="66" width="72" height="58" rx="8" fill={body} />
      <rect x="106" y="56" width="84" height="18" rx="6" fill={lid} />
      <rect x="142" y="56" width="12" height="68" fill={ribbon} />
      <path d="M148 56c-12-15-30-8-21 0zM148 56c12-15 30-8 21 0z" fill={ribbon} />
    </svg>
  )
}
