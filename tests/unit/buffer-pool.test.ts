import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { BufferPool } from '../../app/compositor/buffer-pool'
import { pixelBufferStats, releaseFront, renderFrontWithCells } from '../../app/compositor/print.server'
import { photoCells, pseudoTemplates } from '../../app/catalogue/ornaments'

describe('BufferPool (decision 056)', () => {
  it('hands a buffer given back to the next take of its size, and a new one otherwise', () => {
    const pool = new BufferPool(1024)
    const a = pool.take(100)
    expect(pool.take(100)).not.toBe(a)
    pool.give(a)
    expect(pool.take(50)).not.toBe(a)
    expect(pool.take(100)).toBe(a)
    expect(pool.take(100)).not.toBe(a)
    expect(pool.stats()).toEqual({ taken: 5, reused: 1, keptBytes: 0 })
  })

  it('keeps a buffer given back twice once, so two takes never share it', () => {
    const pool = new BufferPool(1024)
    const a = pool.take(64)
    pool.give(a)
    pool.give(a)
    expect(pool.stats().keptBytes).toBe(64)
    const first = pool.take(64)
    const second = pool.take(64)
    expect(first).toBe(a)
    expect(second).not.toBe(a)
  })

  it('keeps no view into a larger allocation, and nothing past its bound', () => {
    const pool = new BufferPool(100)
    const whole = Buffer.allocUnsafeSlow(200)
    pool.give(whole.subarray(0, 100))
    pool.give(whole)
    expect(pool.stats().keptBytes).toBe(0)
    pool.give(Buffer.allocUnsafeSlow(60))
    pool.give(Buffer.allocUnsafeSlow(60))
    expect(pool.stats().keptBytes).toBe(60)
  })
})

describe('renders into kept buffers', () => {
  it('draws the same pixels into buffers another design drew into as into new ones', async () => {
    const template = pseudoTemplates.star
    const cells = photoCells(template)
    const photo = (r: number, g: number) =>
      sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g, b: 90 } } })
        .jpeg()
        .toBuffer()
    const [red, green] = await Promise.all([photo(220, 30), photo(30, 200)])
    const design = (image: Buffer, rotation: number) => ({
      template,
      photos: Object.fromEntries(cells.map((cell) => [cell.id, { image, transform: { x: 0, y: 0, zoom: 1.5, rotation } }])),
    })
    // A first design fills the buffers with red, edge to edge; given back, the next render takes them.
    releaseFront(await renderFrontWithCells(design(red, 0)))
    const before = pixelBufferStats()
    // Another photo, turned: every pixel of the sheet and the cells is drawn again.
    const reused = await renderFrontWithCells(design(green, 30))
    expect(pixelBufferStats().reused - before.reused).toBe(1 + cells.length)
    const fresh = await renderFrontWithCells(design(green, 30))
    expect(pixelBufferStats().reused - before.reused).toBe(1 + cells.length)
    expect(reused.image.data.equals(fresh.image.data)).toBe(true)
    for (const [i, cell] of reused.cells.entries()) expect(cell.image.data.equals(fresh.cells[i]!.image.data)).toBe(true)
  })
})
