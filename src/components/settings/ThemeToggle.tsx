// Light and dark: the system's preference (prefers-color-scheme) until the user picks one,
// which then goes into the configuration (and so the link). The page's colours are CSS
// variables switched by <html data-theme> (src/styles/app.css).
import { useEffect, useSyncExternalStore } from 'react';
import type { Theme } from '../../app/config';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia(DARK_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** The theme on screen: the chosen one, else the system's. */
export function useEffectiveTheme(chosen: Theme | undefined): Theme {
  const systemDark = useSyncExternalStore(subscribe, () => window.matchMedia(DARK_QUERY).matches);
  return chosen ?? (systemDark ? 'dark' : 'light');
}

/** Put the theme on <html> so the whole document (scrollbars, form controls) follows it. */
export function useThemeAttribute(theme: Theme): void {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
  }, [theme]);
}

export function ThemeToggle({ theme, onChange }: { theme: Theme; onChange: (t: Theme) => void }) {
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      className="theme-toggle"
      aria-pressed={dark}
      title={dark ? 'Switch to the light theme' : 'Switch to the dark theme'}
      onClick={() => onChange(dark ? 'light' : 'dark')}
    >
      {/* the name is the visible text (axe: label-content-name-mismatch); pressed = dark */}
      <span aria-hidden="true">☾</span> Dark theme
    </button>
  );
}
