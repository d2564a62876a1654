import { useEffect, useState } from 'react';

type Theme = 'light' | 'dark';
const STORAGE_KEY = 'social.theme';
const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** The theme follows the system until the person picks one; the pick is remembered on this browser. */
export function useTheme(): [Theme, (theme: Theme) => void] {
  const [chosen, setChosen] = useState<Theme | null>(() => (localStorage.getItem(STORAGE_KEY) as Theme | null) ?? null);
  const [system, setSystem] = useState<Theme>(() => (darkQuery().matches ? 'dark' : 'light'));
  useEffect(() => {
    const query = darkQuery();
    const update = () => setSystem(query.matches ? 'dark' : 'light');
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  const theme = chosen ?? system;
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const choose = (next: Theme) => {
    localStorage.setItem(STORAGE_KEY, next);
    setChosen(next);
  };
  return [theme, choose];
}

export function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button type="button" className="ghost" onClick={() => setTheme(next)} aria-label={`Use the ${next} theme`}>
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </button>
  );
}
