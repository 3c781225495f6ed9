import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BadLinkPage, ErrorPage, NotFoundPage } from '../../app/components/ui/ErrorPage'
import { MaintenanceScreen } from '../../app/components/ui/MaintenanceScreen'

describe('error pages (SPEC.md §8)', () => {
  it('shows the error text, the message and a Retry button', () => {
    const html = renderToStaticMarkup(<ErrorPage title="Network down" message="Try again in a moment." onRetry={() => {}} />)
    expect(html).toContain('<h1 class="text-4xl font-bold tracking-tight text-ink">Network down</h1>')
    expect(html).toContain('Try again in a moment.')
    expect(html).toMatch(/<button[^>]*>Retry<\/button>/)
  })

  it('says Unknown error when the error has no text', () => {
    expect(renderToStaticMarkup(<ErrorPage />)).toContain('>Unknown error</h1>')
    expect(renderToStaticMarkup(<ErrorPage title="" />)).toContain('>Unknown error</h1>')
  })

  it('shows the retry button only when there is something to retry, with the label given', () => {
    expect(renderToStaticMarkup(<ErrorPage title="x" />)).not.toContain('<button')
    expect(renderToStaticMarkup(<ErrorPage title="x" onRetry={() => {}} retryLabel="Try again" />)).toMatch(/<button[^>]*>Try again<\/button>/)
  })

  it('titles the not-found page 404 with the message Page Not Found', () => {
    const html = renderToStaticMarkup(<NotFoundPage />)
    expect(html).toContain('>404</h1>')
    expect(html).toContain('Page Not Found')
  })

  it('titles a broken link 400 and does not call it a missing page (issue 32)', () => {
    const html = renderToStaticMarkup(<BadLinkPage />)
    expect(html).toContain('>400</h1>')
    expect(html).toContain('This link is broken')
    expect(html).not.toContain('Page Not Found')
  })

  it('gives the maintenance screen its title, a logo and two text blocks', () => {
    const html = renderToStaticMarkup(<MaintenanceScreen />)
    expect(html).toContain('>Maintenance in progress</h1>')
    expect(html).toContain('<svg')
    expect(html.match(/<p /g)).toHaveLength(2)
    expect(html).toMatch(/undergoing maintenance.*back soon/)
    expect(html).toContain('Thank you for your understanding.')
  })

  it('shows an outage as "we’ll be right back" on the maintenance screen, with a Try again (issue 43)', () => {
    const html = renderToStaticMarkup(<MaintenanceScreen outage={{ onRetry: () => {} }} />)
    expect(html).toContain('>We’ll be right back</h1>')
    expect(html).toContain('<svg')
    expect(html.match(/<p /g)).toHaveLength(2)
    expect(html).toMatch(/<button[^>]*>Try again<\/button>/)
    expect(html).not.toContain('Maintenance in progress')
    expect(renderToStaticMarkup(<MaintenanceScreen />)).not.toContain('<button')
  })
})
