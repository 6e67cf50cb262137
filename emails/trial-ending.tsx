import * as React from "react";
import {
  Body,
  Button,
  Container,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Section,
  Text,
} from "@react-email/components";

export type TrialEndingProps = {
  /** Where users add a payment method / pick a plan. Required. */
  billingUrl?: string;
  /** First name of the account owner. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Days left in the trial. */
  daysLeft?: number;
  /** Pre-formatted trial end date, e.g. "Friday, March 7". Hidden when empty. */
  trialEndDate?: string;
  /** Plan the user is trialling. */
  planName?: string;
  /** Pre-formatted plan price, e.g. "$29/month". Hidden when empty. */
  planPrice?: string;
  /** Address users can contact with questions. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
  /** Unsubscribe URL: the footer's link, shown only when given (mail sent to many people should have one). */
  unsubscribeUrl?: string;
};

export default function TrialEnding({
  billingUrl = "https://example.com/billing",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  daysLeft = 3,
  trialEndDate = "",
  planName = "Pro",
  planPrice = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl = "",
}: TrialEndingProps) {
  const remaining = daysLeft <= 0 ? "today" : daysLeft === 1 ? "tomorrow" : `in ${daysLeft} days`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Your ${productName} ${planName} trial ends ${remaining}`}</Preview>
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
              {`Your trial ends ${remaining}`}
            </Heading>
            <Text style={paragraph}>{`Hi ${userName},`}</Text>
            <Text style={paragraph}>
              {`Your free trial of ${productName} ${planName} ends ${remaining}${trialEndDate ? ` (${trialEndDate})` : ""}. To keep your projects, integrations and team access without interruption, add a payment method before then.`}
            </Text>
            {planPrice ? (
              <Text style={paragraph}>
                {`The ${planName} plan is ${planPrice}. You can change or cancel at any time.`}
              </Text>
            ) : null}

            <Section style={buttonSection}>
              <Button href={billingUrl} style={button}>
                Add a payment method
              </Button>
            </Section>

            <Text style={muted}>
              If you do nothing, your account will move to the free plan when the trial ends. Your data stays safe and
              you can upgrade again whenever you like.
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Not sure which plan is right for you? Reply to this email or write to{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>{" "}
              and we'll help you choose.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you started a ${productName} trial.`}
              {unsubscribeUrl && (
                <>
                  {" "}
                  <Link href={unsubscribeUrl} style={mutedLink}>
                    Unsubscribe
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

TrialEnding.PreviewProps = {
  billingUrl: "https://acme.example/settings/billing",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  daysLeft: 3,
  trialEndDate: "Friday, March 7",
  planName: "Pro",
  planPrice: "$29/month",
  supportEmail: "sales@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
  unsubscribeUrl: "https://acme.example/unsubscribe?u=42",
} satisfies TrialEndingProps;

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

const buttonSection: React.CSSProperties = { margin: "8px 0 24px" };

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
