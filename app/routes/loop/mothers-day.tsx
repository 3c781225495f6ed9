import { createFileRoute } from '@tanstack/react-router'
import { CampaignPage } from '~/features/loop/CampaignPage'

export const Route = createFileRoute('/loop/mothers-day')({
  component: () => <CampaignPage id="mothers-day" />,
})
