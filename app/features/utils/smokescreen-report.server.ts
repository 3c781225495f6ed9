import { getApiServer } from '~/api/server'
import { smokescreenReport } from '~/api/services/smokescreens'
import { tallyByProduct } from './smokescreen-report'

/** The team's report (`npm run report:smokescreens`) from the database of the API this server runs in-process. */
export async function readSmokescreenReport() {
  const { database } = await getApiServer()
  return tallyByProduct(await smokescreenReport(database.db))
}
