import { useCallback, useSyncExternalStore } from "react";

/** Light or dark, remembered across visits; index.html applies it before the first paint. */
const listeners = new Set<() => void>();
const isDark = () => document.documentElement.classList.contains("dark");

export function useTheme() {
  const dark = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isDark,
    () => false,
  );
  const toggle = useCallback(() => {
    const next = !isDark();
    document.documentElement.classList.toggle("dark", next);
    localStorage.setItem("theme", next ? "dark" : "light");
    listeners.forEach((listener) => listener());
  }, []);
  return { dark, toggle };
}
