import { useCallback, useState } from 'react';

export interface ActionState<A extends unknown[], R> {
  /** Runs the action; resolves `{ ok: false }` when it failed (the failure is then in `error`). */
  run(...args: A): Promise<{ ok: true; value: R } | { ok: false }>;
  pending: boolean;
  error: unknown;
  reset(): void;
}

/** A change the person asked for (a form's submit, a button): its pending flag and its problem, for the page to show. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>): ActionState<A, R> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(
    async (...args: A) => {
      setPending(true);
      setError(undefined);
      try {
        return { ok: true as const, value: await action(...args) };
      } catch (caught) {
        setError(caught);
        return { ok: false as const };
      } finally {
        setPending(false);
      }
    },
    [action],
  );
  return { run, pending, error, reset: useCallback(() => setError(undefined), []) };
}
