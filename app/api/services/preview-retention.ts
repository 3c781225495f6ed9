/**
 * Old previews do not pile up (issue 18, item 7): a preview nobody ordered, nobody keeps in a cart and
 * no checkout session may still turn into an order is deleted PREVIEW_RETENTION_DAYS after it was made,
 * its row first and then its files, on local disk or in S3 (docs/decisions/030-job-queue.md).
 *
 * - Kept for good: previews in an order's print items (a reprint, or Printify fetching a file late,
 *   must still find them), and previews in any cart line, whatever the cart's state. An abandoned cart
 *   is still the shopper's one open cart and can be resumed (SPEC.md §4), so its lines are not emptied
 *   behind their back; with one open cart per shopper this cannot pile up. Removing the line (or the
 *   account) lets the preview go.
 * - Kept while a checkout session names it, unless the session failed or expired more than the
 *   retention period ago: a session we expired can still be paid (cart-states.ts), and its order is
 *   made from the previews the session froze.
 * - Rows, then files: each batch of rows is deleted in one transaction together with the job that
 *   deletes their files, so a crash leaves either both or neither, and a storage error is retried
 *   (and, out of attempts, shown as a failed job) instead of leaving files nobody can find again.
 *   A cart line added while a batch is deleted keeps its preview: the foreign key refuses the delete,
 *   the batch rolls back and the job runs again.
 */
import { sql } from 'drizzle-orm'
import { PREVIEW_RETENTION_DAYS } from '../../catalogue/retention-terms'
import type { ApiDeps } from '../env'
import { enqueueJob, type JobHandlers, type JobRow } from './jobs'
import { previewFiles, previewKey } from './previews'
import { PRINT_POSITIONS, printFilesFolder } from './print-files'

export { PREVIEW_RETENTION_DAYS }

/** Rows deleted per transaction, so one run never holds a long transaction (PGlite has one connection). */
export const PREVIEW_PRUNE_BATCH = 200

const DAY_MS = 24 * 3600_000

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[]
}

/** Deletes up to `limit` prunable preview rows and enqueues the deletion of their files, in one transaction; answers the ids. */
async function pruneBatch(deps: ApiDeps, cutoff: Date, limit: number): Promise<string[]> {
  return deps.db.transaction(async (tx) => {
    const rows = rowsOf<{ id: string; design_hash: string | null }>(
      await tx.execute(sql`
        with kept as (
          select ci.preview_id::text as id from cart_items ci
          union
          select item->>'previewId' from orders o, jsonb_array_elements(o.print_items) item
          union
          select e.value from checkout_sessions cs, jsonb_each_text(cs.preview_ids) e
          where cs.status in ('open', 'processing', 'paid') or (cs.status = 'expired' and cs.updated_at >= ${cutoff.toISOString()})
        )
        delete from previews
        where id in (
          select p.id from previews p
          where p.created_at < ${cutoff.toISOString()} and not exists (select 1 from kept where kept.id = p.id::text)
          order by p.created_at, p.id
          limit ${limit}
        )
        returning id, design_hash`),
    )
    const deleted = rows.map((r) => String(r.id))
    const designHashes = [...new Set(rows.flatMap((r) => (r.design_hash ? [String(r.design_hash)] : [])))]
    if (deleted.length > 0) {
      // A deleted preview is never deleted again, so the first id names this batch for good.
      await enqueueJob(tx, {
        kind: 'delete-preview-files',
        dedupeKey: `delete-preview-files:${deleted[0]}`,
        payload: { previewIds: deleted, designHashes },
        runAt: deps.now(),
      })
    }
    return deleted
  })
}

/** The daily run: every prunable preview, in batches. Answers how many rows went. */
export async function prunePreviews(deps: ApiDeps, { batch = PREVIEW_PRUNE_BATCH }: { batch?: number } = {}) {
  const cutoff = new Date(deps.now().getTime() - PREVIEW_RETENTION_DAYS * DAY_MS)
  let total = 0
  for (;;) {
    const deleted = await pruneBatch(deps, cutoff, batch)
    total += deleted.length
    if (deleted.length < batch) break
  }
  if (total > 0) console.info(`[previews] deleted ${total} preview(s) older than ${PREVIEW_RETENTION_DAYS} days that no cart, checkout or order uses`)
  return total
}

/**
 * Deletes the files of previews whose rows are gone, or were never written (a render that failed half-way: its job was
 * written before its first file, decision 074); a missing file is no error, so a re-run is harmless.
 */
async function deletePreviewFiles(deps: ApiDeps, job: JobRow) {
  const ids = (job.payload.previewIds as unknown[] | undefined)?.map(String) ?? []
  for (const id of ids) {
    await Promise.all(previewFiles.map((file) => deps.storage.delete(previewKey(id, file))))
  }
  // A design's print files go with the last preview of it (another shopper's, or a later one, may share them).
  const hashes = (job.payload.designHashes as unknown[] | undefined)?.map(String) ?? []
  for (const hash of hashes) {
    const used = rowsOf(await deps.db.execute(sql`select 1 from previews where design_hash = ${hash} limit 1`))
    if (used.length === 0) await Promise.all(PRINT_POSITIONS.map((position) => deps.storage.delete(`${printFilesFolder(hash)}/${position}.png`)))
  }
}

/** The retention run's key: one per UTC day, so however many processes drain, it runs once a day. */
export const previewRetentionKey = (now: Date) => `prune-previews:${now.toISOString().slice(0, 10)}`

/** Enqueues today's retention run unless it exists (called before every drain, so it looks before it writes). */
export async function schedulePreviewRetention(deps: ApiDeps) {
  const dedupeKey = previewRetentionKey(deps.now())
  const existing = rowsOf(await deps.db.execute(sql`select 1 from jobs where dedupe_key = ${dedupeKey}`))
  if (existing.length > 0) return
  await enqueueJob(deps.db, { kind: 'prune-previews', dedupeKey, payload: {}, runAt: deps.now(), maxAttempts: 3 })
}

export const previewRetentionJobs: JobHandlers = {
  'prune-previews': {
    run: async (deps) => {
      await prunePreviews(deps)
    },
  },
  'delete-preview-files': { run: deletePreviewFiles },
}
