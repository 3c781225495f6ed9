import { Hono } from 'hono'
import { savedDesignsApi } from '../../contract/endpoints/saved-designs'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { deleteSavedDesign, getSavedDesign, listSavedDesigns, saveDesign } from '../services/saved-designs'

export const savedDesignRoutes = new Hono<ApiEnv>()

endpoint(savedDesignRoutes, savedDesignsApi.listSavedDesigns, ({ user }, c) => listSavedDesigns(c.get('deps').db, c.get('deps').media, user))

endpoint(savedDesignRoutes, savedDesignsApi.getSavedDesign, ({ user, params }, c) => getSavedDesign(c.get('deps').db, c.get('deps').media, user, params.id))

endpoint(savedDesignRoutes, savedDesignsApi.saveDesign, ({ user, params, body }, c) => {
  const deps = c.get('deps')
  return saveDesign(deps.db, deps.media, user, params.variantId, body, deps.now())
})

endpoint(savedDesignRoutes, savedDesignsApi.deleteSavedDesign, ({ user, params }, c) =>
  deleteSavedDesign(c.get('deps').db, c.get('deps').media, user, params.id),
)
