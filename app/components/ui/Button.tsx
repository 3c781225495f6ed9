import { createLink, type LinkComponent } from '@tanstack/react-router'
import { forwardRef, type AnchorHTMLAttributes, type ButtonHTMLAttributes, type Ref } from 'react'

type Variant = 'primary' | 'secondary' | 'quiet'

const base =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-6 py-2.5 text-base font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60'
const variants: Record<Variant, string> = {
  primary: 'bg-cranberry text-white hover:bg-cranberry-dark',
  secondary: 'border-2 border-ink/15 bg-cream-card text-ink hover:border-ink/30',
  quiet: 'text-cranberry underline-offset-4 hover:underline',
}

export const buttonClass = (variant: Variant = 'primary', extra = '') => `${base} ${variants[variant]} ${extra}`

export function Button({
  variant = 'primary',
  className = '',
  ref,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; ref?: Ref<HTMLButtonElement> }) {
  return <button ref={ref} type="button" className={buttonClass(variant, className)} {...props} />
}

const StyledAnchor = forwardRef<HTMLAnchorElement, AnchorHTMLAttributes<HTMLAnchorElement> & { variant?: Variant }>(function StyledAnchor(
  { variant = 'primary', className = '', ...props },
  ref,
) {
  return <a ref={ref} className={buttonClass(variant, className)} {...props} />
})

const CreatedButtonLink = createLink(StyledAnchor)

/** A router Link that looks like a button. */
export const ButtonLink: LinkComponent<typeof StyledAnchor> = (props) => <CreatedButtonLink preload="intent" {...props} />
