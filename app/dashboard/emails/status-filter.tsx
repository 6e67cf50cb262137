"use client";
import { useRouter } from "next/navigation";
import { useOptimistic, useTransition, type MouseEvent } from "react";

export type StatusFilterOption = { value: string; label: string; href: string };

/**
 * The status filter as toggle buttons: the URL holds the filter (reload, back and shared links keep it), so a press
 * navigates, and the pressed state follows at once while the list loads. Pressing the active filter turns it off,
 * back to the first option (everything). The buttons submit a GET form, so the filter works before the page's script
 * has loaded, or without it: a button without a name (everything, or the active filter) submits no status.
 */
export function StatusFilter({
  action,
  options,
  active,
}: {
  action: string;
  options: StatusFilterOption[];
  active: string;
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [pressed, setPressed] = useOptimistic(active);
  const all = options[0];

  function select(event: MouseEvent<HTMLButtonElement>, option: StatusFilterOption) {
    event.preventDefault();
    const next = option.value === pressed ? all : option;
    if (next.value === pressed) return;
    startTransition(() => {
      setPressed(next.value);
      router.push(next.href, { scroll: false });
    });
  }

  return (
    <form action={action} method="get" style={{ marginBottom: 16 }}>
      {/* Compact, to keep the ten on one row on a wide screen; they wrap on a narrow one. */}
      <div
        className="segmented"
        style={{ flexWrap: "wrap" }}
        role="group"
        aria-label="Filter by status"
        aria-busy={pending || undefined}
      >
        {options.map((option) => (
          <button
            key={option.value}
            type="submit"
            name={option === all || option.value === pressed ? undefined : "status"}
            value={option.value}
            aria-pressed={pressed === option.value}
            onClick={(event) => select(event, option)}
          >
            {option.label}
          </button>
        ))}
      </div>
    </form>
  );
}
