import * as React from "react";
import {
  Body,
  Button,
  Column,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from "@react-email/components";

export type UsageAlertProps = {
  /** Where users can upgrade their plan. Required. */
  upgradeUrl?: string;
  /** First name of the account owner. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** What is being metered, e.g. "API requests" or "emails". */
  metricName?: string;
  /** Amount used so far in the current period. */
  used?: number;
  /** Plan limit for the current period. */
  limit?: number;
  /** Name of the current plan. */
  planName?: string;
  /** Pre-formatted end of the billing period, e.g. "March 31". Hidden when empty. */
  periodEnd?: string;
  /** Link to the usage dashboard. Hidden when empty. */
  usageUrl?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
  /** Unsubscribe URL: the footer's link, shown only when given (mail sent to many people should have one). */
  unsubscribeUrl?: string;
};

/** 1234567 -> "1,234,567", without relying on locale APIs. */
function formatNumber(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export default function UsageAlert({
  upgradeUrl = "https://example.com/billing/upgrade",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  metricName = "API requests",
  used = 8000,
  limit = 10000,
  planName = "Free",
  periodEnd = "",
  usageUrl = "",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl = "",
}: UsageAlertProps) {
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100;
  const overLimit = limit > 0 ? used >= limit : true;
  const barColor = overLimit ? "#b91c1c" : percent >= 90 ? "#b45309" : "#111827";
  const headline = overLimit
    ? `You've reached your ${metricName} limit`
    : `You've used ${percent}% of your ${metricName}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`${headline} on the ${productName} ${planName} plan`}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={productName} style={logo} />
            ) : (
              <Text style={wordmark}>{productName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {headline}
            </Heading>
            <Text style={paragraph}>{`Hi ${userName},`}</Text>
            <Text style={paragraph}>
              {overLimit
                ? `Your ${productName} account has used all ${formatNumber(limit)} ${metricName} included in the ${planName} plan${periodEnd ? ` for the period ending ${periodEnd}` : ""}. Upgrade now to avoid interruptions.`
                : `Your ${productName} account has used ${formatNumber(used)} of the ${formatNumber(limit)} ${metricName} included in the ${planName} plan${periodEnd ? ` for the period ending ${periodEnd}` : ""}. Upgrade before you hit the limit to avoid interruptions.`}
            </Text>

            <Section style={usageBox}>
              <Row>
                <Column>
                  <Text style={usageLabel}>{metricName}</Text>
                </Column>
                <Column style={usageValueColumn}>
                  <Text style={usageValue}>{`${formatNumber(used)} / ${formatNumber(limit)}`}</Text>
                </Column>
              </Row>
              <Row style={track} role="img" aria-label={`${percent}% of ${metricName} used`}>
                {percent > 0 ? (
                  <Column style={{ ...bar, width: `${percent}%`, backgroundColor: barColor }}>&nbsp;</Column>
                ) : null}
                {percent < 100 ? <Column style={bar}>&nbsp;</Column> : null}
              </Row>
              <Text style={usageCaption}>{`${percent}% used${periodEnd ? ` · resets ${periodEnd}` : ""}`}</Text>
            </Section>

            <Section style={buttonSection}>
              <Button href={upgradeUrl} style={button}>
                Upgrade your plan
              </Button>
            </Section>

            {usageUrl ? (
              <Text style={muted}>
                See a full breakdown on your{" "}
                <Link href={usageUrl} style={link}>
                  usage dashboard
                </Link>
                .
              </Text>
            ) : null}

            <Hr style={hr} />
            <Text style={muted}>
              We send usage alerts at 80%, 90% and 100% of your plan limits so there are no surprises.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you're an owner of a ${productName} account.`}
              {unsubscribeUrl && (
                <>
                  {" "}
                  <Link href={unsubscribeUrl} style={mutedLink}>
                    Stop usage alerts
                  </Link>
                </>
              )}
            </Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

UsageAlert.PreviewProps = {
  upgradeUrl: "https://acme.example/settings/billing?upgrade=pro",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  metricName: "API requests",
  used: 92450,
  limit: 100000,
  planName: "Starter",
  periodEnd: "March 31",
  usageUrl: "https://acme.example/settings/usage",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl: "https://acme.example/unsubscribe?u=42",
} satisfies UsageAlertProps;

const fontFamily = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

const main: React.CSSProperties = {
  backgroundColor: "#f4f4f5",
  fontFamily,
  margin: "0",
  padding: "0",
};

const container: React.CSSProperties = {
  width: "100%",
  maxWidth: "600px",
  margin: "0 auto",
  padding: "32px 12px",
};

const header: React.CSSProperties = { padding: "0 8px 20px" };

const logo: React.CSSProperties = { display: "block", border: "0" };

const wordmark: React.CSSProperties = {
  margin: "0",
  fontSize: "20px",
  fontWeight: 700,
  letterSpacing: "-0.02em",
  color: "#111827",
};

const card: React.CSSProperties = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "12px",
  padding: "32px 28px",
};

const h1: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "24px",
  lineHeight: "32px",
  fontWeight: 700,
  color: "#111827",
};

const paragraph: React.CSSProperties = {
  margin: "0 0 16px",
  fontSize: "16px",
  lineHeight: "26px",
  color: "#374151",
};

const usageBox: React.CSSProperties = {
  backgroundColor: "#f9fafb",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  padding: "16px",
  margin: "8px 0 24px",
};

const usageLabel: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
};

const usageValueColumn: React.CSSProperties = { textAlign: "right" };

const usageValue: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#374151",
  textAlign: "right",
};

const track: React.CSSProperties = {
  width: "100%",
  backgroundColor: "#e5e7eb",
  borderRadius: "4px",
};

const bar: React.CSSProperties = {
  height: "8px",
  fontSize: "1px",
  lineHeight: "8px",
  padding: "0",
};

const usageCaption: React.CSSProperties = {
  margin: "8px 0 0",
  fontSize: "13px",
  lineHeight: "20px",
  color: "#52525b",
};

const buttonSection: React.CSSProperties = { margin: "0 0 24px" };

const button: React.CSSProperties = {
  backgroundColor: "#111827",
  borderRadius: "8px",
  color: "#ffffff",
  fontSize: "16px",
  fontWeight: 600,
  textDecoration: "none",
  textAlign: "center",
  display: "inline-block",
  padding: "12px 24px",
};

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const mutedLink: React.CSSProperties = {
  color: "#52525b",
  textDecoration: "underline",
};

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
