import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/core/config";
import { libraryAllowance, onboardingState, usageSummary } from "@/lib/dashboard/queries";
import { countEmailsByStatus, listEmailsPage } from "@/lib/sent-emails/service";
import { deliverabilityWarning, type DeliverabilityWarning } from "@/lib/metrics/service";
import { billingPeriod } from "@/lib/core/plans";
import { formatDate, formatDateTime, formatNumber, formatRate, PLAN_LABEL, timeAgo } from "../_components/format";
import { ArrowRightIcon, MailIcon } from "../_components/icons";
import { Meter, StatusBadge } from "../_components/meter";
import { EmptyState } from "./_components/data-table";
import { PageHeader } from "./_components/page-header";
import { QuotaStatCard, StatCard } from "./_components/stat-card";
import { CardSection } from "../_components/card-section";
import { CodeSnippet } from "../_components/code-snippet";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const account = await requireAccount("/dashboard");
  const since = billingPeriod().start;
  const [usage, allowance, onboarding, recent, thisMonth, testsThisMonth, warning] = await Promise.all([
    usageSummary(account.id, 30),
    libraryAllowance(account.id, account.plan),
    onboardingState(account.id),
    listEmailsPage(account.id, { limit: 5, offset: 0 }).then((page) => page.emails),
    // The month's emails by what became of them: each email counted once, by its status now. Test sends included, as
    // Recent emails and the Bounced list show them, and said apart.
    countEmailsByStatus(account.id, { since }),
    countEmailsByStatus(account.id, { since, test: true }),
    deliverabilityWarning(account.id),
  ]);
  const testProblems = testsThisMonth.bounced + testsThisMonth.complained;
  const steps = [
    {
      done: onboarding.hasKey,
      title: "Generate an API key",
      text: "Your server authenticates with it.",
      href: "/dashboard/settings/api-keys",
      cta: "Generate key",
    },
    {
      done: onboarding.hasTemplate,
      title: "Add a template",
      text: "Pick one from the catalogue or write your own.",
      href: "/dashboard/catalogue",
      cta: "Browse catalogue",
    },
    {
      done: onboarding.hasVerifiedDomain,
      title: "Verify a sending domain",
      text: "Emails are sent from addresses on it.",
      href: "/dashboard/domains",
      cta: "Add domain",
    },
    {
      done: onboarding.hasSent,
      title: "Send your first email",
      text: "Send a test from any template's page.",
      href: "/dashboard/library",
      cta: "Open library",
    },
  ];
  const remaining = steps.filter((step) => !step.done).length;
  const name = account.person.email.split("@")[0];

  return (
    <>
      <PageHeader
        title={<>Hello, {name}</>}
        intro={
          <>
            {PLAN_LABEL[usage.plan]} plan · usage resets {formatDate(usage.reset)}
          </>
        }
        actions={
          <Link href="/dashboard/catalogue" className="btn btn-primary">
            Browse templates
          </Link>
        }
      />

      <div className="stack">
        {warning && <DeliverabilityAlert warning={warning} />}
        <div className="stats">
          <QuotaStatCard
            label="API calls this month"
            meterLabel="API calls"
            used={usage.apiCalls.used}
            limit={usage.apiCalls.limit}
            unit="calls"
          />
          <QuotaStatCard
            label="Emails this month"
            meterLabel="Emails"
            used={usage.emails.current_usage}
            limit={usage.emails.monthly_limit}
            unit="emails"
            foot={`Test sends not counted (${formatNumber(usage.testEmailsToday)} today).`}
          />
          <StatCard
            label="Bounces and complaints"
            testId="delivery-problems"
            value={
              <>
                {formatNumber(thisMonth.bounced)} <small>{thisMonth.bounced === 1 ? "bounce" : "bounces"} ·</small>{" "}
                {formatNumber(thisMonth.complained)}{" "}
                <small>{thisMonth.complained === 1 ? "complaint" : "complaints"}</small>
              </>
            }
            foot={
              <>
                Of this month&apos;s emails
                {testProblems > 0 &&
                  `; ${testProblems} ${testProblems === 1 ? "was a test send" : "were test sends"}`}.{" "}
                <Link href="/dashboard/emails?status=bounced">Bounced emails</Link>
              </>
            }
          />
          <StatCard
            label="Library"
            value={
              <>
                {allowance.librarySize}{" "}
                <small>{allowance.libraryLimit === null ? "templates" : `/ ${allowance.libraryLimit} templates`}</small>
              </>
            }
          >
            <Meter
              label="Library"
              used={allowance.librarySize}
              limit={allowance.libraryLimit}
              unit="templates"
              compact
            />
          </StatCard>
        </div>

        <div className="two-col">
          <CardSection
            headingId="start-title"
            title={remaining === 0 ? "You're all set" : "Get started"}
            aside={
              <span className="muted small">
                {steps.length - remaining} of {steps.length} done
              </span>
            }
          >
            <ol className="checklist">
              {steps.map((step) => (
                <li key={step.title} className={step.done ? "done" : undefined}>
                  <span className="check" aria-hidden="true">
                    ✓
                  </span>
                  <span className="check-text">
                    <span className="check-title">{step.title}</span>
                    <span className="visually-hidden">{step.done ? " (done)" : " (to do)"}</span>
                    <br />
                    <span className="muted small">{step.text}</span>
                  </span>
                  {!step.done && (
                    <Link href={step.href} className="btn btn-secondary btn-sm">
                      {step.cta}
                    </Link>
                  )}
                </li>
              ))}
            </ol>
          </CardSection>

          <CardSection
            headingId="quick-title"
            title="Call the API"
            aside={
              <Link href="/docs" className="small">
                Reference
              </Link>
            }
          >
            <div className="card-body stack-sm">
              <p className="muted small" style={{ margin: 0 }}>
                List your library from your server:
              </p>
              <CodeSnippet
                name="curl example"
                code={`curl ${getConfig().siteUrl}/api/v1/library \\\n  -H "X-API-Key: $LETTERPRESS_API_KEY"`}
              />
            </div>
          </CardSection>
        </div>

        <CardSection
          headingId="recent-title"
          title="Recent emails"
          aside={
            <Link href="/dashboard/emails" className="row small">
              All emails <ArrowRightIcon size={14} />
            </Link>
          }
        >
          {recent.length === 0 ? (
            <EmptyState icon={<MailIcon size={22} />} title="Nothing sent yet">
              <p>Messages you send through the API or as tests from the dashboard appear here.</p>
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <tbody>
                  {recent.map((email) => (
                    <tr key={email.id}>
                      <td>
                        <Link className="row-link" href={`/dashboard/emails/${encodeURIComponent(email.id)}`}>
                          {email.subject}
                        </Link>
                        <div className="muted small">to {email.to.join(", ")}</div>
                      </td>
                      <td className="nowrap">
                        <StatusBadge status={email.status} test={email.test} />
                        {email.test && (
                          <span className="badge" style={{ marginLeft: 6 }}>
                            Test
                          </span>
                        )}
                      </td>
                      <td className="nowrap muted small hide-sm">
                        {email.status === "scheduled" && email.scheduled_at
                          ? `For ${formatDateTime(email.scheduled_at)}`
                          : timeAgo(email.sent_at ?? email.created_at)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardSection>
      </div>
    </>
  );
}

/** The last 30 days' complaint or bounce rate at the level where mailbox providers start refusing a sender. */
function DeliverabilityAlert({ warning }: { warning: DeliverabilityWarning }) {
  const rates = [
    ...(warning.complaintRate !== null
      ? [`complaint rate is ${formatRate(warning.complaintRate)} (0.3% or more)`]
      : []),
    ...(warning.bounceRate !== null ? [`bounce rate is ${formatRate(warning.bounceRate)} (4% or more)`] : []),
  ];
  return (
    <div className="alert alert-warning" role="status" data-testid="deliverability-warning">
      <p>
        <strong>Your last 30 days&rsquo; {rates.join(" and ")}.</strong> Gmail and Yahoo refuse mail from senders whose
        complaints reach 0.3%, and a high bounce rate gets a sender slowed or suspended.
      </p>
      {warning.templates.length > 0 && <p>Templates behind it: {warning.templates.join(", ")}.</p>}
      {warning.domains.length > 0 && <p>Sending domains behind it: {warning.domains.join(", ")}.</p>}
    </div>
  );
}
