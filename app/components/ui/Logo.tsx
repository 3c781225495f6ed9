/** The Keepsake mark: an ornament with a heart, in cranberry and gold. */
export function LogoMark({ className = 'size-9' }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" className={className} aria-hidden="true">
      <rect x="16" y="2" width="8" height="6" rx="2" fill="#c9962b" />
      <circle cx="20" cy="23" r="15" fill="#a3213a" />
      <path d="M20 31c-5-3.6-8-6.4-8-9.6a4.3 4.3 0 0 1 8-2.2 4.3 4.3 0 0 1 8 2.2c0 3.2-3 6-8 9.6z" fill="#fbf6ee" />
    </svg>
  )
}

export function Logo({ className = '' }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <LogoMark />
      <span className="text-xl font-bold tracking-tight text-ink">Keepsake</span>
    </span>
  )
}
