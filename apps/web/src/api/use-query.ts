import { useCallback, useEffect, useRef, useState } from 'react';

export interface QueryState<T> {
  data: T | undefined;
  /** What the last load threw (a PlatformProblem for API refusals): show it with <ProblemMessage>. */
  error: unknown;
  loading: boolean;
  /** Loads again (after a change the page made). */
  reload(): void;
  /** Replaces the data in place, e.g. with what a successful change answered. */
  setData(data: T): void;
}

/**
 * Loads `load()` whenever `key` changes (null: not yet, e.g. no workspace chosen), keeping the last data while
 * reloading. A load whose key went stale is aborted and its answer ignored.
 */
export function useQuery<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): QueryState<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: key !== null });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const loadedKey = useRef(key);

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    // A reload keeps what is shown; another key (another workspace, another page of results) starts blank.
    const sameKey = loadedKey.current === key;
    loadedKey.current = key;
    setState((previous) => ({ data: sameKey ? previous.data : undefined, loading: true }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false }),
      (error: unknown) => !controller.signal.aborted && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const setData = useCallback((data: T) => setState({ data, loading: false }), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, setData };
}
