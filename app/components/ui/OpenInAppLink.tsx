import { usePublicConfig } from '~/lib/public-config'

/**
 * The app's store tab opened at `path` (the page the shopper is on), as an app-scheme link: `?path=` carries it.
 * Issue 32: the prompt used to link the generic download page, so a shopper who has the app lost their page.
 */
export function appStoreLink(storeTab: string, path: string): string {
  const url = new URL(storeTab)
  url.searchParams.set('path', path)
  return url.toString()
}

/**
 * "Open in the app" on a phone: the app at this page when it is installed; when nothing takes the link (the page is
 * still showing a moment later) the download link, as before.
 */
export function OpenInAppLink({ path, className }: { path: string; className: string }) {
  const { deepLinks } = usePublicConfig()
  const href = appStoreLink(deepLinks.storeTab, path)
  return (
    <a
      href={href}
      className={className}
      onClick={(event) => {
        event.preventDefault()
        // Loaded on the tap: the prompts sit on landings whose first load is held to a budget (decision 049).
        void import('~/lib/app-link').then(({ followAppLink }) => followAppLink(href, () => window.location.assign(deepLinks.download)))
      }}
    >
      Open in the app
    </a>
  )
}
