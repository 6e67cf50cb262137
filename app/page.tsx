import Link from "next/link";
import { connection } from "next/server";
import { ArrowRightIcon, CodeIcon, LibraryIcon, SendIcon } from "./_components/icons";
import { formatNumber } from "./_components/format";
import { freeAllowance, PaymentModeNote, PlanCards } from "./_components/plan-cards";
import { SiteFooter, SiteHeader } from "./_components/site-header";
import { getConfig } from "@/lib/core/config";
import { getPaymentMode } from "@/lib/billing/payments";
import { PLANS } from "@/lib/core/plans";

/** The illustration's account, part-way through the free plan's month. */
const SAMPLE_EMAILS_SENT = 18;

// Rendered per request: the configuration (the site URL, the payment mode) is the deployment's at run time, which a
// build (Vercel's, with no runtime secret set) must not read.
export default async function LandingPage() {
  await connection();
  const { siteUrl } = getConfig();
  return (
    <>
      <SiteHeader />
      <main id="main">
        <div className="container">
          <section className="hero" aria-labelledby="hero-title">
            <div>
              <span className="eyebrow">React Email templates · JSON API</span>
              <h1 id="hero-title">Beautiful email, one API call away.</h1>
              <p className="hero-lede">
                Pick production-ready templates from the catalogue or write your own in TSX. Fill in variables, then
                render or send them with a single request. Keys, usage and every message you send live in one calm
                dashboard.
              </p>
              <div className="hero-actions">
                <Link href="/signup" className="btn btn-primary btn-lg">
                  Start free <ArrowRightIcon size={16} />
                </Link>
                <Link href="/docs" className="btn btn-secondary btn-lg">
                  Read the API docs
                </Link>
              </div>
              <p className="muted small" style={{ marginTop: 16 }}>
                Free plan: {freeAllowance()}. No card needed.
              </p>
            </div>
            <div className="hero-visual">
              <pre className="code-block" aria-label="Example: sending an email with curl">
                <code>
                  <span className="tok-comment"># Send a welcome email from your library</span>
                  {"\n"}curl {siteUrl}/api/v1/send \{"\n"}
                  {"  "}-H <span className="tok-string">&quot;X-API-Key: $LETTERPRESS_API_KEY&quot;</span> \{"\n"}
                  {"  "}-H <span className="tok-string">&quot;Content-Type: application/json&quot;</span> \{"\n"}
                  {"  "}-d <span className="tok-string">&apos;{"{"}</span>
                  {"\n    "}
                  <span className="tok-key">&quot;template_id&quot;</span>:{" "}
                  <span className="tok-string">&quot;6f1c…e42a&quot;</span>,{"\n    "}
                  <span className="tok-key">&quot;to&quot;</span>:{" "}
                  <span className="tok-string">&quot;ada@example.com&quot;</span>,{"\n    "}
                  <span className="tok-key">&quot;subject&quot;</span>:{" "}
                  <span className="tok-string">&quot;Welcome aboard&quot;</span>,{"\n    "}
                  <span className="tok-key">&quot;variables&quot;</span>: {"{ "}
                  <span className="tok-key">&quot;userName&quot;</span>:{" "}
                  <span className="tok-string">&quot;Ada&quot;</span>
                  {" }"}
                  {"\n  "}
                  <span className="tok-string">{"}"}&apos;</span>
                </code>
              </pre>
              <div className="hero-card" aria-hidden="true">
                <div className="row-between">
                  <strong>Welcome aboard</strong>
                  <span className="badge badge-success badge-dot">Sent</span>
                </div>
                <div className="muted">to ada@example.com · just now</div>
                <div className="progress" style={{ marginTop: 10 }}>
                  <span style={{ width: `${(SAMPLE_EMAILS_SENT / PLANS.free.emailsPerMonth) * 100}%` }} />
                </div>
                <div className="muted small" style={{ marginTop: 6 }}>
                  {SAMPLE_EMAILS_SENT} of {formatNumber(PLANS.free.emailsPerMonth)} emails this month
                </div>
              </div>
            </div>
          </section>

          <section className="features" aria-label="What Letterpress does">
            <div className="card feature">
              <div className="feature-icon">
                <LibraryIcon />
              </div>
              <h2 style={{ fontSize: "1.05rem" }}>A library of templates</h2>
              <p>
                Welcome, verification, receipts, newsletters and more, designed and tested across clients. Add the free
                ones in a click, buy premium ones, or write your own in TSX.
              </p>
            </div>
            <div className="card feature">
              <div className="feature-icon">
                <CodeIcon />
              </div>
              <h2 style={{ fontSize: "1.05rem" }}>Render anywhere</h2>
              <p>
                Get HTML and plain text back, or the React source with your variables applied. Your own templates run in
                a locked-down WebAssembly sandbox.
              </p>
            </div>
            <div className="card feature">
              <div className="feature-icon">
                <SendIcon />
              </div>
              <h2 style={{ fontSize: "1.05rem" }}>Send with confidence</h2>
              <p>
                Verified sending domains, idempotency keys, scheduled delivery and clear usage limits, with every
                message kept for you to inspect.
              </p>
            </div>
          </section>

          <section className="section" aria-labelledby="how-title">
            <h2 id="how-title" className="section-title">
              From sign-up to inbox in four steps
            </h2>
            <p className="muted">Everything below takes a couple of minutes in the dashboard.</p>
            <ol className="steps">
              <li>
                <h3>Create an account</h3>
                <p>Email and password. You start on the free plan.</p>
              </li>
              <li>
                <h3>Generate an API key</h3>
                <p>Settings → API Keys. Keep it on your server.</p>
              </li>
              <li>
                <h3>Add templates</h3>
                <p>Browse the catalogue, preview with your own data.</p>
              </li>
              <li>
                <h3>Send</h3>
                <p>
                  <code>POST /api/v1/send</code> from a verified domain.
                </p>
              </li>
            </ol>
          </section>

          <section className="section" id="pricing" aria-labelledby="pricing-title">
            <h2 id="pricing-title" className="section-title">
              Plans
            </h2>
            <p className="muted">Limits reset on the first day of each month (UTC).</p>
            <div className="stack">
              <PaymentModeNote mode={getPaymentMode()} />
              <PlanCards
                action={(plan) => (
                  <Link href="/signup" className={`btn ${plan === "free" ? "btn-primary" : "btn-secondary"} btn-block`}>
                    {plan === "free" ? "Start free" : "Start free, upgrade later"}
                  </Link>
                )}
              />
            </div>
          </section>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
