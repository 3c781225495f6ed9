import { Link } from '@tanstack/react-router'
import { LogoMark } from '../ui/Logo'

export function SiteFooter({ supportEmail }: { supportEmail: string }) {
  return (
    <footer className="mt-16 border-t border-ink/10 bg-cream-deep/60">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 text-sm text-ink-soft sm:grid-cols-3 sm:px-6">
        <div className="flex items-start gap-3">
          <LogoMark className="size-8 shrink-0" />
          <p>Photo ornaments made from your family album, printed to order and shipped in a gift box.</p>
        </div>
        <nav aria-label="More from Keepsake" className="flex flex-col gap-1">
          <Link to="/fmn" className="py-1.5 hover:text-ink">
            Partner offers
          </Link>
          <Link to="/photo-products/tou" className="py-1.5 hover:text-ink">
            Terms of use
          </Link>
          <Link to="/privacy" className="py-1.5 hover:text-ink">
            Privacy
          </Link>
          <Link to="/utils" className="py-1.5 hover:text-ink">
            Help and tools
          </Link>
        </nav>
        <div>
          <p className="font-semibold text-ink">Questions about an order?</p>
          <a href={`mailto:${supportEmail}`} className="mt-1 inline-block py-1.5 font-semibold text-cranberry underline-offset-4 hover:underline">
            {supportEmail}
          </a>
        </div>
      </div>
    </footer>
  )
}
