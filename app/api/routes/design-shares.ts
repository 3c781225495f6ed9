import { Hono } from 'hono'
import { designSharesApi } from '../../contract/endpoints/design-shares'
import { endpoint } from '../endpoint'
import type { ApiEnv } from '../env'
import { createDesignShare, getSharedDesign, listDesignShares, reactToSharedDesign, revokeDesignShare } from '../services/design-shares'

export const designShareRoutes = new Hono<ApiEnv>()

endpoint(designShareRoutes, designSharesApi.createDesignShare, ({ user, body }, c) => createDesignShare(c.get('deps'), user, body))

endpoint(designShareRoutes, designSharesApi.listDesignShares, ({ user, query }, c) => listDesignShares(c.get('deps'), user, query.designId))

endpoint(designShareRoutes, designSharesApi.getSharedDesign, ({ user, params }, c) => getSharedDesign(c.get('deps'), user, params.token))

endpoint(designShareRoutes, designSharesApi.revokeDesignShare, ({ user, params }, c) => revokeDesignShare(c.get('deps'), user, params.token))

endpoint(designShareRoutes, designSharesApi.loveSharedDesign, ({ user, params }, c) => reactToSharedDesign(c.get('deps'), user, params.token, { loved: true }))

endpoint(designShareRoutes, designSharesApi.unloveSharedDesign, ({ user, params }, c) =>
  reactToSharedDesign(c.get('deps'), user, params.token, { loved: false }),
)

endpoint(designShareRoutes, designSharesApi.writeShareNote, ({ user, params, body }, c) =>
  reactToSharedDesign(c.get('deps'), user, params.token, { note: body.note }),
)

endpoint(designShareRoutes, designSharesApi.deleteShareNote, ({ user, params }, c) => reactToSharedDesign(c.get('deps'), user, params.token, { note: null }))
