import {
  createDesignShareRequestSchema,
  designShareNoteRequestSchema,
  designSharesQuerySchema,
  designShareTokenParamsSchema,
  ownDesignShareSchema,
  ownDesignSharesSchema,
  sharedDesignSchema,
} from '../design-shares'
import type { Endpoint } from '../endpoint'
import { SHARE_NOTE_MAX } from '../../catalogue/design-share-terms'

const tag = 'photo-products-design-shares'

/** "Share for a look" (issue 19, part 5): a saved design sent to the sharer's family; 404 for anyone outside it. */
export const designSharesApi = {
  createDesignShare: {
    method: 'post',
    path: '/photo-products-design-shares',
    tag,
    summary:
      'Send a saved design to one of the shopper’s families: a link with an unguessable token showing the design as it is now (404 when the design or family is not the shopper’s; 422 when it uses photos the family cannot see)',
    auth: 'user',
    body: createDesignShareRequestSchema,
    response: ownDesignShareSchema,
    status: 201,
  },
  listDesignShares: {
    method: 'get',
    path: '/photo-products-design-shares',
    tag,
    summary: 'The live shares of one of the shopper’s saved designs with the family’s answers, and the families it can go to',
    auth: 'user',
    query: designSharesQuerySchema,
    response: ownDesignSharesSchema,
  },
  getSharedDesign: {
    method: 'get',
    path: '/photo-products-design-shares/:token',
    tag,
    summary: 'A shared design as a member of its family sees it (404 when unknown, revoked, or the shopper is not in that family)',
    auth: 'user',
    params: designShareTokenParamsSchema,
    response: sharedDesignSchema,
  },
  revokeDesignShare: {
    method: 'delete',
    path: '/photo-products-design-shares/:token',
    tag,
    summary: 'The sharer stops a share: its link answers 404 from now on (404 when not the shopper’s); answers the design’s shares left',
    auth: 'user',
    params: designShareTokenParamsSchema,
    response: ownDesignSharesSchema,
  },
  loveSharedDesign: {
    method: 'put',
    path: '/photo-products-design-shares/:token/love',
    tag,
    summary: '“Love it” from a family member (once each; again changes nothing)',
    auth: 'user',
    params: designShareTokenParamsSchema,
    response: sharedDesignSchema,
  },
  unloveSharedDesign: {
    method: 'delete',
    path: '/photo-products-design-shares/:token/love',
    tag,
    summary: 'Take back the member’s “Love it”',
    auth: 'user',
    params: designShareTokenParamsSchema,
    response: sharedDesignSchema,
  },
  writeShareNote: {
    method: 'put',
    path: '/photo-products-design-shares/:token/note',
    tag,
    summary: `The member’s one-line note (at most ${SHARE_NOTE_MAX} characters, trimmed), replacing the one they wrote before`,
    auth: 'user',
    params: designShareTokenParamsSchema,
    body: designShareNoteRequestSchema,
    response: sharedDesignSchema,
  },
  deleteShareNote: {
    method: 'delete',
    path: '/photo-products-design-shares/:token/note',
    tag,
    summary: 'Delete the member’s note',
    auth: 'user',
    params: designShareTokenParamsSchema,
    response: sharedDesignSchema,
  },
} as const satisfies Record<string, Endpoint>
