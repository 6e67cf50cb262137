import type { Metadata } from "next";
import Link from "next/link";
import { Logo } from "./_components/logo";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <main id="main" className="auth-page">
      <Logo />
      <div className="card auth-card empty-state">
        <h1>Page not found</h1>
        <p>The page you were looking for doesn&apos;t exist, or you don&apos;t have access to it.</p>
        <div className="row" style={{ justifyContent: "center" }}>
          <Link href="/dashboard" className="btn btn-primary">
            Go to the dashboard
          </Link>
          <Link href="/" className="btn btn-secondary">
            Home
          </Link>
        </div>
      </div>
    </main>
  );
}
