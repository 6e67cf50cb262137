"use client";
import { useEffect, useState } from "react";
import { CopyIcon } from "./icons";

/**
 * Copies `value` to the clipboard. The button's text says "Copied" for two seconds and a status region announces it
 * (a button's own text changing is not announced). `ariaLabel` names an icon-sized button by what it copies
 * ("Copy curl example"); it starts with the visible label so speech control finds it.
 */
export function CopyButton({
  value,
  label = "Copy",
  ariaLabel,
  className = "btn btn-secondary btn-sm",
}: {
  value: string;
  label?: string;
  ariaLabel?: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = window.setTimeout(() => setState("idle"), 2000);
    return () => window.clearTimeout(timer);
  }, [state]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  const shown = state === "copied" ? "Copied" : state === "failed" ? "Press Ctrl+C" : label;
  return (
    <>
      <button type="button" className={className} onClick={copy} aria-label={ariaLabel}>
        <CopyIcon size={15} />
        <span>{shown}</span>
      </button>
      <span role="status" className="visually-hidden">
        {state === "idle" ? "" : shown}
      </span>
    </>
  );
}
