"use client";
import { useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";

export type StatusFilterOption = { value: string; label: string; href: string };

/**
 * The status filter as toggle buttons: the URL holds the filter (reload, back and shared links keep it), so a press
 * navigates, and the pressed state follows at once while the list loads. Pressing the active filter turns it off,
 * back to the first option (everything).
 */
export function StatusFilter({ options, active }: { options: StatusFilterOption[]; active: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [pressed, setPressed] = useOptimistic(active);
  const all = options[0];

  function select(option: StatusFilterOption) {
    const next = option.value === pressed ? all : option;
    if (next.value === pressed) return;
    startTransition(() => {
      setPressed(next.value);
      router.push(next.href, { scroll: false });
    });
  }

  return (
    <div
      className="chips"
      role="group"
      aria-label="Filter by status"
      aria-busy={pending || undefined}
      style={{ marginBottom: 16 }}
    >
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="chip"
          aria-pressed={pressed === option.value}
          onClick={() => select(option)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
