import { LogoMark } from '../../components/ui/Logo'

/** SPEC.md §1: the alternate root application shown inside a root-override window, a standalone page of its own. */
export function HolidayRoot() {
  return (
    <main
      id="main"
      data-testid="holiday-root"
      className="relative flex min-h-dvh flex-col items-center justify-center overflow-hidden bg-cranberry-dark px-6 py-16 text-center text-cream"
    >
      <svg aria-hidden="true" className="pointer-events-none absolute inset-0 size-full opacity-15" viewBox="0 0 400 400" preserveAspectRatio="xMidYMid slice">
        {Array.from({ length: 24 }, (_, i) => (
          <path
            key={i}
            transform={`translate(${(i * 67) % 400} ${(i * 113) % 400}) scale(${0.6 + (i % 4) * 0.25})`}
            d="M10 18C4 13.6 0 10.2 0 6.2A5.2 5.2 0 0 1 10 3.6 5.2 5.2 0 0 1 20 6.2C20 10.2 16 13.6 10 18z"
            fill="#fbf6ee"
          />
        ))}
      </svg>
      <LogoMark className="relative size-20" />
      <p className="relative mt-8 text-sm font-semibold uppercase tracking-[0.2em] text-gold-tint">A little love note from Keepsake</p>
      <h1 className="relative mt-3 max-w-xl text-4xl font-bold tracking-tight sm:text-5xl">Hold the ones you love a little closer today</h1>
      <p className="relative mt-5 max-w-md text-lg text-cream/90">
        We have stepped away to spend this evening with our own families. The store opens its doors again in a few hours — your album and your cart will be
        right where you left them.
      </p>
    </main>
  )
}
