import { LogoMark } from './Logo'

/** SPEC.md §1: the maintenance screen — a logo, the title and two text blocks. */
export function MaintenanceScreen() {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center bg-cream px-6 py-16 text-center">
      <LogoMark className="size-20" />
      <h1 className="mt-8 text-3xl font-bold tracking-tight text-ink sm:text-4xl">Maintenance in progress</h1>
      <p className="mt-4 max-w-md text-lg text-ink-soft">Keepsake is undergoing maintenance right now. We will be back soon.</p>
      <p className="mt-3 max-w-md text-base text-ink-soft">Thank you for your understanding.</p>
    </main>
  )
}
