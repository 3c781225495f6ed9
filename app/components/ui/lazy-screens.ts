import { lazy } from 'react'

/**
 * The error and not-found screens as lazy components, for the router's defaults and the root's not-found page: each
 * loads when one is shown, not with every page's first load (decision 049). One definition, so both share it.
 */
export const LazyErrorPage = lazy(() => import('./ErrorPage').then((m) => ({ default: m.ErrorPage })))
export const LazyNotFoundPage = lazy(() => import('./ErrorPage').then((m) => ({ default: m.NotFoundPage })))
export const LazyBadLinkPage = lazy(() => import('./ErrorPage').then((m) => ({ default: m.BadLinkPage })))
export const LazyMaintenanceScreen = lazy(() => import('./MaintenanceScreen').then((m) => ({ default: m.MaintenanceScreen })))
