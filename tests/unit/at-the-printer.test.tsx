import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Order } from '../../app/contract/cart'
import { AtThePrinter } from '../../app/features/cart/OrdersPage'

const orderWith = (parcels: { status: string; sentToProductionAt: string | null }[]) => ({ status: 'submitted', parcels }) as unknown as Order

describe('the order timeline’s line at the printer (issue 50)', () => {
  it('says production starts soon until every parcel at the printer has been released to production', () => {
    const waiting = renderToStaticMarkup(<AtThePrinter order={orderWith([{ status: 'submitted', sentToProductionAt: null }])} />)
    expect(waiting).toBe('At the printer — production starts soon.')
    const half = renderToStaticMarkup(
      <AtThePrinter
        order={orderWith([
          { status: 'submitted', sentToProductionAt: '2026-12-03T10:00:00.000Z' },
          { status: 'submitted', sentToProductionAt: null },
        ])}
      />,
    )
    expect(half).toBe('At the printer — production starts soon.')
  })

  it('says when the order was released for production once it was', () => {
    const html = renderToStaticMarkup(
      <AtThePrinter
        order={orderWith([
          { status: 'submitted', sentToProductionAt: '2026-12-03T10:00:00.000Z' },
          { status: 'shipped', sentToProductionAt: '2026-12-02T09:00:00.000Z' },
        ])}
      />,
    )
    expect(html).toMatch(/^At the printer — released for production <time[^>]*dateTime="2026-12-03T10:00:00.000Z"/)
    expect(html).toMatch(/printing starts soon\.$/)
  })
})
