// Whether an element is on screen: views that redraw on every animation frame (the disk, the
// clock, the queues, the charts' cursors) hold still while scrolled out of sight, so a frame
// of playback costs only what can be seen. A view scrolled back shows the current instant.
import { useCallback, useEffect, useState } from 'react';

/** How far outside the viewport a view still counts as shown (px): it is up to date just
 * before it scrolls in. */
const MARGIN = '200px';

/**
 * A ref callback for the element, and whether it is on screen. True until the first
 * observation (and where there is no IntersectionObserver): a view draws until told otherwise.
 */
export function useInView<T extends Element>(): [(el: T | null) => void, boolean] {
  const [el, setEl] = useState<T | null>(null);
  const [shown, setShown] = useState(true);
  useEffect(() => {
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const last = entries[entries.length - 1];
        if (last) setShown(last.isIntersecting);
      },
      { rootMargin: MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  const ref = useCallback((node: T | null) => setEl(node), []);
  return [ref, shown];
}
