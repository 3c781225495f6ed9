import { usePublicConfig } from '~/lib/public-config'

const sections = [
  {
    title: 'What we make',
    body: 'Keepsake prints the photos you choose onto physical products, such as ornaments, through our print partner. Each product is made to order for you.',
  },
  {
    title: 'Your photos',
    body: 'You keep every right to your photos. You give us permission to use them only to show you previews and to print and ship your order. Only upload photos you have the right to use.',
  },
  {
    title: 'Prices and payment',
    body: 'Prices are shown in US dollars and are set when you check out. Payment is taken by our checkout provider; we never see or store your full card number.',
  },
  {
    title: 'Previews and printing',
    body: 'The preview you approve is the file we print. Small differences in colour between screens and printed material are normal and are not a defect.',
  },
  {
    title: 'Shipping, returns and problems',
    body: 'Because every product is personal, we cannot take returns for a change of mind. If your order arrives damaged or misprinted, tell us within 30 days and we will reprint or refund it.',
  },
]

/** /photo-products/tou: the terms of use, naming the support e-mail (SPEC.md §1). */
export function TermsOfUse() {
  const { supportEmail } = usePublicConfig()
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <p className="text-sm font-semibold uppercase tracking-[0.16em] text-pine">Photo products</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Terms of use</h1>
      <p className="mt-4 text-lg text-ink-soft">These terms cover photo products you order from Keepsake. Please read them before you place an order.</p>
      <div className="mt-8 space-y-8">
        {sections.map((s) => (
          <section key={s.title}>
            <h2 className="text-xl font-semibold">{s.title}</h2>
            <p className="mt-2 leading-relaxed text-ink-soft">{s.body}</p>
          </section>
        ))}
        <section>
          <h2 className="text-xl font-semibold">Contact us</h2>
          <p className="mt-2 leading-relaxed text-ink-soft">
            Questions about these terms or an order? Write to{' '}
            <a className="font-semibold text-cranberry underline" href={`mailto:${supportEmail}`}>
              {supportEmail}
            </a>{' '}
            and a person will answer within one working day.
          </p>
        </section>
      </div>
    </main>
  )
}
