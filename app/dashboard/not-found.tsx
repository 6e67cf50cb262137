import Link from "next/link";

export default function DashboardNotFound() {
  return (
    <div className="card empty-state">
      <h1>Not found</h1>
      <p>This item doesn&apos;t exist or isn&apos;t in your account.</p>
      <Link href="/dashboard" className="btn btn-primary">
        Back to the overview
      </Link>
    </div>
  );
}
