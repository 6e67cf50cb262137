export default function DashboardLoading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="visually-hidden">Loading…</span>
      <div className="skeleton" style={{ height: 30, width: 240, marginBottom: 10 }} />
      <div className="skeleton" style={{ height: 16, width: 380, maxWidth: "100%", marginBottom: 28 }} />
      <div className="stats">
        {[0, 1, 2].map((index) => (
          <div key={index} className="skeleton" style={{ height: 110 }} />
        ))}
      </div>
      <div className="skeleton" style={{ height: 260, marginTop: 20 }} />
    </div>
  );
}
