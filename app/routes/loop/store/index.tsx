import { createFileRoute } from '@tanstack/react-router'
import { CampaignPage } from '~/features/loop/CampaignPage'

export const Route = createFileRoute('/loop/store/')({
  component: () => <CampaignPage id="store" />,
})
