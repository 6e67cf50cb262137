"use client";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="card empty-state" role="alert">
      <h1>Something went wrong</h1>
      <p>
        This page could not be loaded. Try again; if it keeps happening, quote reference{" "}
        <code>{error.digest ?? "unknown"}</code>.
      </p>
      <button type="button" className="btn btn-primary" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
