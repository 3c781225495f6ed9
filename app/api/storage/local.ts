import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { crashPoint } from '../crash-points'
import { assertSafeKey, ObjectTooLarge, type ObjectStorage } from './storage'

const CONTENT_TYPE_SUFFIX = '.content-type'
/** A write in progress: `<file>.<uuid>.tmp`, renamed into place when whole. */
const TEMP_SUFFIX = '.tmp'

/** Objects as files under `root`; the content type sits beside each file. Writes are atomic (temp file, then rename). */
export function localStorage(root: string): ObjectStorage {
  const fileOf = (key: string) => {
    const file = path.resolve(root, assertSafeKey(key))
    if (!file.startsWith(path.resolve(root) + path.sep)) throw new Error(`Refusing storage key outside ${root}`)
    return file
  }
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

  return {
    kind: 'local',
    hosts: [],
    async put(key, body, contentType) {
      const file = fileOf(key)
      await fs.mkdir(path.dirname(file), { recursive: true })
      const temp = `${file}.${randomUUID()}${TEMP_SUFFIX}`
      await fs.writeFile(temp, body)
      await crashPoint('storage:before-rename')
      await fs.writeFile(file + CONTENT_TYPE_SUFFIX, contentType)
      await fs.rename(temp, file)
    },
    async get(key, maxBytes) {
      const file = fileOf(key)
      try {
        if (maxBytes !== undefined && (await fs.stat(file)).size > maxBytes) throw new ObjectTooLarge(key, maxBytes)
        const [body, contentType] = await Promise.all([fs.readFile(file), fs.readFile(file + CONTENT_TYPE_SUFFIX, 'utf8')])
        return { body, contentType }
      } catch (error) {
        if (missing(error)) return null
        throw error
      }
    },
    async size(key) {
      try {
        return (await fs.stat(fileOf(key))).size
      } catch (error) {
        if (missing(error)) return null
        throw error
      }
    },
    async sweepTemporary(olderThanMs) {
      let swept = 0
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
        if (missing(error)) return []
        throw error
      })
      const before = Date.now() - olderThanMs
      for (const entry of entries) {
        if (!entry.isFile() || !entry.name.endsWith(TEMP_SUFFIX)) continue
        const file = path.join(entry.parentPath, entry.name)
        const stat = await fs.stat(file).catch(() => null)
        if (!stat || stat.mtimeMs > before) continue
        await fs.rm(file, { force: true })
        swept++
      }
      return swept
    },
    async delete(key) {
      const file = fileOf(key)
      await fs.rm(file, { force: true })
      await fs.rm(file + CONTENT_TYPE_SUFFIX, { force: true })
    },
  }
}
