import { useEffect, useRef, useState } from 'react'
import { uploadContentTypes } from '~/catalogue/photo-constants'
import { unwrap } from '~/lib/api-outcome'
import { uploadPhoto } from '~/lib/photo-upload'
import { notify } from '~/lib/toast'
import { createPhotoUploadLink } from './photos.functions'

type Job = { key: string; file: File; progress: number; state: 'uploading' | 'done' | 'failed'; error?: string }

const ACCEPT = [...uploadContentTypes, '.heic', '.heif'].join(',')

/** "Upload from device": several files at once, each with progress, a retry toast and a retry button; UploadButton and UploadJobs show it. */
export function usePhotoUploads(onUploaded: () => void) {
  const input = useRef<HTMLInputElement | null>(null)
  const [jobs, setJobs] = useState<Job[]>([])
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>())
  useEffect(() => {
    const pending = timers.current
    return () => pending.forEach(clearTimeout)
  }, [])
  const update = (key: string, patch: Partial<Job>) => setJobs((all) => all.map((j) => (j.key === key ? { ...j, ...patch } : j)))

  const run = async (job: Job) => {
    update(job.key, { state: 'uploading', progress: 0, error: undefined })
    try {
      await uploadPhoto(job.file, {
        createLink: async (data) => unwrap(await createPhotoUploadLink({ data })),
        onProgress: (progress) => update(job.key, { progress }),
      })
      update(job.key, { state: 'done', progress: 1 })
      onUploaded()
      // A finished upload leaves the queue once its photo shows in the uploads row.
      const timer = setTimeout(() => {
        timers.current.delete(timer)
        setJobs((all) => all.filter((j) => j.key !== job.key))
      }, 1500)
      timers.current.add(timer)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      update(job.key, { state: 'failed', error: message })
      notify.error(`${job.file.name}: ${message}`, { label: 'Retry', onClick: () => void run(job) })
    }
  }

  const start = (files: FileList | null) => {
    const added = Array.from(files ?? []).map((file) => ({ key: `${file.name}-${file.size}-${Math.random()}`, file, progress: 0, state: 'uploading' as const }))
    setJobs((all) => [...all, ...added])
    for (const job of added) void run(job)
    if (input.current) input.current.value = ''
  }

  return { input, jobs, start, retry: (job: Job) => void run(job) }
}

export type PhotoUploads = ReturnType<typeof usePhotoUploads>

export function UploadButton({ uploads }: { uploads: PhotoUploads }) {
  const { input, start } = uploads
  return (
    <div className="w-full sm:w-auto">
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        className="sr-only"
        id="photo-upload-input"
        data-testid="photo-upload-input"
        onChange={(e) => start(e.target.files)}
        tabIndex={-1}
        aria-hidden="true"
      />
      <button
        type="button"
        onClick={() => input.current?.click()}
        className="inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-full bg-pine px-5 font-semibold text-white hover:bg-pine-dark sm:w-auto"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M12 16V4m0 0-5 5m5-5 5 5M5 20h14" />
        </svg>
        Upload from device
      </button>
    </div>
  )
}

export function UploadJobs({ uploads }: { uploads: PhotoUploads }) {
  const { jobs, retry } = uploads
  if (jobs.length === 0) return null
  return (
    <ul className="mt-4 grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label="Uploads in progress">
      {jobs.map((job) => (
        <li key={job.key} className="rounded-xl bg-cream-deep px-3 py-2 text-sm" data-testid="upload-job" data-state={job.state}>
          <div className="flex items-center justify-between gap-2">
            <span className="truncate font-medium">{job.file.name}</span>
            <span className="shrink-0 text-ink-soft">
              {job.state === 'done' ? 'Uploaded' : job.state === 'failed' ? 'Failed' : `${Math.round(job.progress * 100)}%`}
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={`Uploading ${job.file.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(job.progress * 100)}
            className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-ink/10"
          >
            <div
              className={`h-full rounded-full transition-[width] ${job.state === 'failed' ? 'bg-cranberry' : 'bg-pine'}`}
              style={{ width: `${Math.max(4, job.progress * 100)}%` }}
            />
          </div>
          {job.state === 'failed' ? (
            <div className="mt-2 flex items-start justify-between gap-2">
              <p className="text-cranberry-dark">{job.error}</p>
              <button type="button" onClick={() => retry(job)} className="min-h-11 shrink-0 rounded-full px-3 font-semibold text-cranberry underline">
                Retry
              </button>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  )
}
