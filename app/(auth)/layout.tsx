import Link from "next/link";
import { Logo } from "../_components/logo";

export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main id="main" className="auth-page">
      <Logo />
      <div className="card auth-card">{children}</div>
      <p className="muted small" style={{ marginTop: 24 }}>
        <Link href="/docs">API reference</Link> · <Link href="/">About Letterpress</Link>
      </p>
    </main>
  );
}
