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
  it('a burst of print renders takes one slot, leaves the other to previews, and never queues in front of one', async () => {
    expect(MAX_CONCURRENT_RENDERS).toBe(2)
    const log: string[] = []
    const prints = Array.from({ length: 4 }, (_, i) => held(log, `print-${i}`))
    const running = prints.map((p) => withCpuSlot('background', p.work))
    await settle()
    // One background render at a time, though two slots are free.
    expect(log).toEqual(['print-0'])
    const preview = held(log, 'preview-0')
    const shopper = withCpuSlot('shopper', preview.work)
    await settle()
    expect(log).toEqual(['print-0', 'preview-0'])
    // Both slots busy; a second shopper and the waiting prints queue: the shopper goes first when a slot frees.
    const second = held(log, 'preview-1')
    const secondShopper = withCpuSlot('shopper', second.work)
    prints[0]!.release()
    await running[0]
    await settle()
    expect(log).toEqual(['print-0', 'preview-0', 'preview-1'])
    expect(cpuSlotState()).toMatchObject({ running: 2, backgroundRunning: 0, waiting: { shopper: 0, background: 3 } })
    preview.release()
    await shopper
    await settle()
    expect(log.at(-1)).toBe('print-1')
    second.release()
    await secondShopper
    await settle()
    // Still one background render at a time after the shoppers have gone.
    expect(cpuSlotState()).toMatchObject({ running: 1, backgroundRunning: 1 })
    for (const p of prints.slice(1)) p.release()
    await Promise.all(running)
    expect(cpuSlotState()).toMatchObject({ running: 0, backgroundRunning: 0, waiting: { shopper: 0, background: 0 } })
  })

  it('a failed render gives its slot back', async () => {
    await expect(withCpuSlot('background', async () => Promise.reject(new Error('no photo')))).rejects.toThrow('no photo')
    await expect(withCpuSlot('shopper', async () => Promise.reject(new Error('bad')))).rejects.toThrow('bad')
    expect(cpuSlotState()).toMatchObject({ running: 0, backgroundRunning: 0 })
  })
})
