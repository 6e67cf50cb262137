import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { usageSummary } from "@/lib/dashboard/queries";
import { TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import { BarChart } from "../../_components/bar-chart";
import { formatDate, formatDateTime, formatNumber, PLAN_LABEL } from "../../_components/format";
import { PageHeader } from "../_components/page-header";
import { QuotaStatCard, StatCard } from "../_components/stat-card";
import { CardSection } from "../../_components/card-section";

export const metadata: Metadata = { title: "Usage" };

export default async function UsagePage() {
  const account = await requireAccount("/dashboard/usage");
  const usage = await usageSummary(account.id, 30);
  // A Server Component renders once per request, so the request's own time is the one to count from.
  // eslint-disable-next-line react-hooks/purity
  const daysLeft = Math.max(1, Math.ceil((usage.reset.getTime() - Date.now()) / 86_400_000));
  const apiExhausted = usage.apiCalls.limit !== null && usage.apiCalls.remaining === 0;
  const emailsExhausted = !usage.emails.overageAllowed && usage.emails.remaining === 0;

  return (
    <>
      <PageHeader
        title="Usage"
        intro={
          <>
            This month so far (from {formatDate(usage.periodStart)}, UTC). The same numbers as{" "}
            <code>GET /api/v1/usage</code>.
          </>
        }
        actions={
          <Link href="/dashboard/billing" className="btn btn-secondary">
            Change plan
          </Link>
        }
      />

      <div className="stack">
        {apiExhausted && (
          <div className="alert alert-danger" role="status">
            <p>
              <strong>API limit reached.</strong> Render, library and send calls are refused with 429 until{" "}
              {formatDateTime(usage.reset)}. <Link href="/dashboard/billing">Upgrade</Link> for unlimited calls.
            </p>
          </div>
        )}
        {emailsExhausted && (
          <div className="alert alert-danger" role="status">
            <p>
              <strong>Email limit reached.</strong> The free plan&apos;s {formatNumber(usage.emails.monthly_limit)}{" "}
              emails are used up; further sends are refused (nothing is sent) until {formatDateTime(usage.reset)}.
            </p>
          </div>
        )}
        {usage.emails.is_overage && (
          <div className="alert alert-warning" role="status">
            <p>
              <strong>In overage.</strong> {formatNumber(usage.emails.overage_emails)} email
              {usage.emails.overage_emails === 1 ? "" : "s"} beyond your plan&apos;s{" "}
              {formatNumber(usage.emails.monthly_limit)} this month. Sending continues; each extra email is billed.
            </p>
          </div>
        )}

        <div className="stats">
          <StatCard
            label="Plan"
            value={PLAN_LABEL[usage.plan]}
            foot={
              <>
                Resets {formatDate(usage.reset)} · in {daysLeft} day{daysLeft === 1 ? "" : "s"}
              </>
            }
          />
          <QuotaStatCard
            label="API calls"
            meterLabel="API calls this month"
            used={usage.apiCalls.used}
            limit={usage.apiCalls.limit}
            unit="calls"
            foot={
              <>
                {usage.apiCalls.remaining === null
                  ? "No monthly limit on your plan."
                  : `${formatNumber(usage.apiCalls.remaining)} left this month.`}{" "}
                Calls to /api/v1 (your API keys&apos;); the dashboard&apos;s previews and test sends are not counted.
              </>
            }
          />
          <QuotaStatCard
            label="Emails"
            meterLabel="Emails this month"
            used={usage.emails.current_usage}
            limit={usage.emails.monthly_limit}
            unit="emails"
            foot={
              usage.emails.overageAllowed
                ? usage.emails.is_overage
                  ? `${formatNumber(usage.emails.overage_emails)} in overage.`
                  : `${formatNumber(usage.emails.remaining)} left before overage billing.`
                : `${formatNumber(usage.emails.remaining)} left; sending stops at the limit.`
            }
          />
          <StatCard
            label="Test sends"
            testId="test-sends"
            value={
              <>
                {formatNumber(usage.testEmailsToday)} <small>today</small>
              </>
            }
            foot={
              <>
                Sent with <Link href="/dashboard/settings/api-keys">test keys</Link> or from a template&apos;s page
                (UTC): kept in your outbox, never delivered and not counted in Emails. At most {TEST_EMAILS_PER_DAY} a
                day.
              </>
            }
          />
        </div>

        <CardSection
          headingId="api-chart-title"
          title="API calls per day"
          aside={
            <span className="legend">
              <span>
                <span className="legend-swatch" style={{ background: "var(--accent)" }} />
                Metered calls (library, render, send)
              </span>
            </span>
          }
        >
          <div className="card-body">
            <BarChart label="API calls" points={usage.daily.map((day) => ({ day: day.day, value: day.api_calls }))} />
          </div>
        </CardSection>

        <CardSection
          headingId="email-chart-title"
          title="Emails per day"
          aside={
            <span className="legend">
              <span>
                <span className="legend-swatch" style={{ background: "var(--success)" }} />
                Emails sent
              </span>
            </span>
          }
        >
          <div className="card-body">
            <BarChart
              label="Emails"
              tone="email"
              points={usage.daily.map((day) => ({ day: day.day, value: day.emails }))}
            />
          </div>
        </CardSection>
      </div>
    </>
  );
}
