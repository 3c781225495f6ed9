import { MutationObserver, onlineManager, QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { GeneratedPreview, GeneratePreviewRequest } from '../../app/contract/designs'
import { previewFailureText, previewMutationOptions } from '../../app/features/designer/api/generate-preview.functions'
import { notify } from '../../app/lib/toast'

/**
 * Issue 42, item 17: "Preview my ornament" made while the connection drops. It used to wait, paused, for the
 * browser to come back online, the tray saying "Making your preview…" with no message; now it fails at once and
 * the toast says the connection was lost, with a Retry that sends the same design again.
 */
const request: GeneratePreviewRequest = { variantId: 72965, pseudoTemplateId: 'star', backSideId: '72965-1', cells: [] }
afterEach(() => {
  onlineManager.setOnline(true)
  vi.restoreAllMocks()
})

describe('a preview made offline', () => {
  it('is sent (not paused) and fails with “the connection was lost” and a Retry that sends the same design', async () => {
    const toasts = vi.spyOn(notify, 'error').mockImplementation(() => undefined)
    onlineManager.setOnline(false)
    const send = vi.fn(async (): Promise<GeneratedPreview> => {
      throw new TypeError('Failed to fetch')
    })
    const retry = vi.fn()
    const observer = new MutationObserver(new QueryClient(), previewMutationOptions(send, false, retry))
    void observer.mutate(request).catch(() => undefined)
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'))
    expect(observer.getCurrentResult().isPaused).toBe(false)
    expect(send).toHaveBeenCalledTimes(1)
    expect(toasts).toHaveBeenCalledWith(
      'We could not make your preview: the connection was lost. Check your connection and try again.',
      expect.objectContaining({ label: 'Retry' }),
    )
    toasts.mock.calls[0]![1]!.onClick()
    expect(retry).toHaveBeenCalledWith(request)
  })

  it('says what the API answered for any other failure', () => {
    expect(previewFailureText(new Error('Sign in to preview your ornament'))).toBe('We could not make your preview: Sign in to preview your ornament')
    expect(previewFailureText(new TypeError('Failed to fetch'))).toMatch(/the connection was lost/)
  })
})
