/** /utils/status: the background jobs' health in plain words (issue 18). Pure, so the words are tested without a server. */
export type JobsStatus = {
  /** Jobs that ran out of attempts, or null when the count could not be read. */
  failed: number | null
  tone: 'ok' | 'attention' | 'unknown'
  label: string
  explanation: string
}

export function jobsStatusOf(failed: number | null): JobsStatus {
  if (failed === null) {
    return { failed, tone: 'unknown', label: 'Unknown', explanation: 'The count of failed jobs could not be read just now. Reload the page to try again.' }
  }
  if (failed === 0) {
    return { failed, tone: 'ok', label: 'None failed', explanation: 'Every background job has finished or is still being retried.' }
  }
  const jobs = failed === 1 ? '1 job' : `${failed} jobs`
  return {
    failed,
    tone: 'attention',
    label: `${failed} failed`,
    explanation: `${jobs} ran out of attempts and ${failed === 1 ? 'waits' : 'wait'} for a person — an order not sent to the printer or an e-mail not sent, for example. Each is in the server log on a line starting “[jobs] gave up”.`,
  }
}
