import { useEffect, useState, type RefObject } from 'react'

/**
 * The preview pane is pinned just below the sticky site header. While it is pinned above the
 * controls (phones), the page's scroll padding grows by its height, and by the tray's at the
 * bottom, so a control scrolled to or focused is never hidden behind either. Answers the pane's top.
 */
export function usePinnedPreview(pane: RefObject<HTMLElement | null>, tray: RefObject<HTMLElement | null>) {
  const [top, setTop] = useState(0)
  useEffect(() => {
    const header = document.querySelector('header')
    const root = document.documentElement
    const sideBySide = window.matchMedia('(min-width: 1024px)')
    const update = () => {
      const headerHeight = header?.getBoundingClientRect().height ?? 0
      setTop(headerHeight)
      const pinnedAbove = pane.current && !sideBySide.matches && getComputedStyle(pane.current).position === 'sticky'
      root.style.scrollPaddingTop = `${headerHeight + (pinnedAbove ? pane.current!.getBoundingClientRect().height : 0) + 8}px`
      root.style.scrollPaddingBottom = `${(tray.current?.getBoundingClientRect().height ?? 0) + 8}px`
    }
    update()
    const observer = new ResizeObserver(update)
    for (const el of [header, pane.current, tray.current]) if (el) observer.observe(el)
    window.addEventListener('resize', update)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', update)
      root.style.scrollPaddingTop = ''
      root.style.scrollPaddingBottom = ''
    }
  }, [pane, tray])
  return top
}
