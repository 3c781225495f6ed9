import { createFileRoute } from '@tanstack/react-router'
import { CampaignPage } from '~/features/loop/CampaignPage'

export const Route = createFileRoute('/loop/modal/new-user')({
  component: () => <CampaignPage id="modal-new-user" />,
})
