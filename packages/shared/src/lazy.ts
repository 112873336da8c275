/**
 * A module loaded on first use and kept: `const programs = lazy(() => require('./programs'))`.
 * Keeps a package's entry cheap (tool-runner's index, llm-base's) without paying module
 * resolution on every call (a `require` inside a hot function resolves its path again each
 * time: about 10 µs a call).
 */
export function lazy<T>(load: () => T): () => T {
  let loaded = false;
  let value: T;
  return () => {
    if (!loaded) {
      value = load();
      loaded = true;
    }
    return value;
  };
}
