import { useState, type ReactNode } from 'react';

/**
 * A destructive button that asks once more in place (no modal, so keyboard and screen readers stay where they
 * were): the first press shows "Confirm" and "Keep", the second runs `onConfirm`.
 */
export function ConfirmButton({
  children,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  children: ReactNode;
  /** The accessible name of the confirming button, e.g. "Confirm: revoke the token CI". */
  confirmLabel: string;
  onConfirm(): void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className="danger" disabled={disabled} onClick={() => setAsking(true)}>
        {children}
      </button>
    );
  return (
    <span className="confirm" role="group" aria-label="Confirm">
      <button
        type="button"
        className="danger"
        autoFocus
        aria-label={confirmLabel}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Confirm
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
