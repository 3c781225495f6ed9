/** "Still stuck? Write to help@…": the way out every error and failure state offers. */
export function SupportLine({ email, lead = 'Still stuck?', className = 'mt-2 text-sm text-ink-soft' }: { email: string; lead?: string; className?: string }) {
  return (
    <p className={className}>
      {lead} Write to{' '}
      <a className="font-semibold text-cranberry underline" href={`mailto:${email}`}>
        {email}
      </a>
      .
    </p>
  )
}
