import { useRouter } from '@tanstack/react-router'
import { useState } from 'react'
import { LoadFailedPanel } from '~/components/ui/StatePanel'

// An invite landing whose invite could not be looked up (the API failed): a rare state, loaded only when it is shown
// (landing-loader.tsx), so that a landing's first load does not carry it nor the failure panel it draws (decision 049).

/** The invite could not be looked up (the API failed): the invite still holds, try again. */
export function InviteLoadFailed({ message }: { message: string }) {
  const router = useRouter()
  const [retrying, setRetrying] = useState(false)
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10 sm:px-6 sm:pt-14" data-lazy-part="invite-load-failed">
      <h1 className="mb-6 text-center text-3xl font-bold tracking-tight sm:text-4xl">You’re invited to Keepsake</h1>
      <LoadFailedPanel
        testId="invite-error"
        title="We couldn’t open this invite just now"
        reassurance={`${message} Your friend’s invite is still good — try again in a moment.`}
        supportLead="Still stuck?"
        retrying={retrying}
        onRetry={() => {
          setRetrying(true)
          void router.invalidate().finally(() => setRetrying(false))
        }}
      />
    </div>
  )
}
