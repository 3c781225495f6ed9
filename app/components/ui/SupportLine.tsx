/** "Still stuck? Write to help@…": the way out every error and failure state offers. */
export function SupportLine({
  email,
  lead = 'Still stuck?',
  className = 'mt-2 text-sm text-ink-soft',
  linkClassName = 'text-cranberry',
}: {
  email: string
  lead?: string
  className?: string
  /** The link's colour; inside a tinted alert, '' keeps the alert's own text colour for contrast. */
  linkClassName?: string
}) {
  return (
    <p className={className}>
      {lead} Write to{' '}
      <a className={`font-semibold underline ${linkClassName}`.trim()} href={`mailto:${email}`}>
        {email}
      </a>
      .
    </p>
  )
}
