import { describe, expect, it } from 'vitest'
import { cpuSlotState, MAX_CONCURRENT_RENDERS, withCpuSlot } from '../../app/api/cpu-slots'

/** A render that runs until released, recording when it started. */
function held(log: string[], name: string) {
  let release!: () => void
  const done = new Promise<void>((resolve) => (release = resolve))
  return { release, work: () => (log.push(name), done) }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('CPU slots: shoppers before background renders', () => {
  it('a burst of print renders runs one at a time, only while no preview runs or waits, and never queues in front of one', async () => {
    expect(MAX_CONCURRENT_RENDERS).toBe(2)
    const log: string[] = []
    const prints = Array.from({ length: 4 }, (_, i) => held(log, `print-${i}`))
    const running = prints.map((p) => withCpuSlot('background', p.work))
    await settle()
    // One background render at a time, though two slots are free.
    expect(log).toEqual(['print-0'])
    // A preview arriving mid-render takes the other slot at once.
    const preview = held(log, 'preview-0')
    const shopper = withCpuSlot('shopper', preview.work)
    await settle()
    expect(log).toEqual(['print-0', 'preview-0'])
    // Both slots busy: a second preview queues ahead of the three waiting prints and takes the first slot freed.
    const second = held(log, 'preview-1')
    const secondShopper = withCpuSlot('shopper', second.work)
    prints[0]!.release()
    await running[0]
    await settle()
    expect(log).toEqual(['print-0', 'preview-0', 'preview-1'])
    expect(cpuSlotState()).toMatchObject({ running: 2, backgroundRunning: 0, waiting: { shopper: 0, background: 3 } })
    // One preview done, one still running: a slot is free, yet no print starts beside a preview.
    preview.release()
    await shopper
    await settle()
    expect(log.at(-1)).toBe('preview-1')
    expect(cpuSlotState()).toMatchObject({ running: 1, backgroundRunning: 0, waiting: { background: 3 } })
    // The last preview done: the prints go on, one at a time.
    second.release()
    await secondShopper
    await settle()
    expect(log.at(-1)).toBe('print-1')
    expect(cpuSlotState()).toMatchObject({ running: 1, backgroundRunning: 1 })
    for (const p of prints.slice(1)) p.release()
    await Promise.all(running)
    expect(log).toEqual(['print-0', 'preview-0', 'preview-1', 'print-1', 'print-2', 'print-3'])
    expect(cpuSlotState()).toMatchObject({ running: 0, backgroundRunning: 0, waiting: { shopper: 0, background: 0 } })
  })

  it('a failed render gives its slot back', async () => {
    await expect(withCpuSlot('background', async () => Promise.reject(new Error('no photo')))).rejects.toThrow('no photo')
    await expect(withCpuSlot('shopper', async () => Promise.reject(new Error('bad')))).rejects.toThrow('bad')
    expect(cpuSlotState()).toMatchObject({ running: 0, backgroundRunning: 0 })
  })
})
