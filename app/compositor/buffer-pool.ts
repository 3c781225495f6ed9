/**
 * Large pixel buffers kept for the next render instead of given back to the allocator (decision 056). A fresh
 * buffer of several megabytes costs its pages' first faults every time (about 3 ms a megabyte on this machine,
 * more than the copy into it), and its release a garbage collection sooner; a kept one costs neither. A buffer is
 * given back only by the one code path that knows nothing reads it any more, and a buffer given back twice is
 * kept once, so no two renders ever share one.
 */
export class BufferPool {
  private readonly free = new Map<number, Buffer[]>()
  private readonly kept = new WeakSet<ArrayBufferLike>()
  private bytes = 0
  private taken = 0
  private reused = 0

  constructor(private readonly maxBytes: number) {}

  /** A buffer of `size` bytes: one given back earlier (its old contents still in it), or a new one. */
  take(size: number): Buffer {
    this.taken++
    const buffer = this.free.get(size)?.pop()
    if (!buffer) return Buffer.allocUnsafeSlow(size)
    this.reused++
    this.bytes -= size
    this.kept.delete(buffer.buffer)
    return buffer
  }

  /** Keeps `buffer` for a later `take`, when it is a whole allocation of its own, not kept already, and there is room. */
  give(buffer: Buffer) {
    const whole = buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength
    if (!whole || this.kept.has(buffer.buffer) || this.bytes + buffer.byteLength > this.maxBytes) return
    this.kept.add(buffer.buffer)
    this.bytes += buffer.byteLength
    const list = this.free.get(buffer.byteLength)
    if (list) list.push(buffer)
    else this.free.set(buffer.byteLength, [buffer])
  }

  /** Buffers taken, of them reused, and bytes kept now (for tests and metrics). */
  stats() {
    return { taken: this.taken, reused: this.reused, keptBytes: this.bytes }
  }
}
