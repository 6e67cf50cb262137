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

export type WelcomeProps = {
  /** First name of the new user. */
  userName?: string;
  /** Your product or company name, shown in the header and copy. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Where the main call-to-action button points. */
  dashboardUrl?: string;
  /** Link to your documentation or getting-started guide. */
  docsUrl?: string;
  /** Address users can reply to for help. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

const steps = [
  {
    title: "Complete your profile",
    body: "Add your name and photo so teammates know who they are working with.",
  },
  {
    title: "Create your first project",
    body: "Projects keep your work organised. It only takes a minute.",
  },
  {
    title: "Invite your team",
    body: "Everything is better together. Bring in the people you work with.",
  },
];

export default function Welcome({
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  dashboardUrl = "https://example.com/dashboard",
  docsUrl = "https://example.com/docs",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: WelcomeProps) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Welcome to ${productName}, ${userName}! Here's how to get started.`}</Preview>
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
              Welcome to {productName}, {userName}!
            </Heading>
            <Text style={paragraph}>
              Thanks for signing up. Your account is ready, and we're excited to have you on board. Here are three quick
              steps to get the most out of {productName}:
            </Text>

            {steps.map((step, index) => (
              <Row key={step.title} style={stepRow}>
                <Column style={stepNumberColumn}>
                  <Text style={stepNumber}>{index + 1}</Text>
                </Column>
                <Column>
                  <Text style={stepTitle}>{step.title}</Text>
                  <Text style={stepBody}>{step.body}</Text>
                </Column>
              </Row>
            ))}

            <Section style={buttonSection}>
              <Button href={dashboardUrl} style={button}>
                Go to your dashboard
              </Button>
            </Section>

            <Text style={paragraph}>
              Want to dig deeper? Our{" "}
              <Link href={docsUrl} style={link}>
                getting-started guide
              </Link>{" "}
              walks through everything in detail. And if you ever get stuck, just reply to this email or write to{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>
              .
            </Text>
            <Text style={paragraph}>
              Welcome aboard,
              <br />
              The {productName} team
            </Text>
          </Section>

          <Section style={footer}>
            <Hr style={hr} />
            <Text style={footerText}>You're receiving this email because you created a {productName} account.</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

Welcome.PreviewProps = {
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  dashboardUrl: "https://acme.example/dashboard",
  docsUrl: "https://acme.example/docs/getting-started",
  supportEmail: "help@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies WelcomeProps;

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

const stepRow: React.CSSProperties = { marginBottom: "12px" };

const stepNumberColumn: React.CSSProperties = {
  width: "40px",
  verticalAlign: "top",
};

const stepNumber: React.CSSProperties = {
  margin: "0",
  width: "28px",
  height: "28px",
  lineHeight: "28px",
  borderRadius: "14px",
  backgroundColor: "#111827",
  color: "#ffffff",
  fontSize: "14px",
  fontWeight: 700,
  textAlign: "center",
};

const stepTitle: React.CSSProperties = {
  margin: "0",
  fontSize: "16px",
  lineHeight: "24px",
  fontWeight: 600,
  color: "#111827",
};

const stepBody: React.CSSProperties = {
  margin: "0 0 4px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const buttonSection: React.CSSProperties = { margin: "24px 0 28px" };

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

const link: React.CSSProperties = {
  color: "#1d4ed8",
  textDecoration: "underline",
};

const footer: React.CSSProperties = { padding: "0 8px" };

const hr: React.CSSProperties = {
  borderColor: "#e4e4e7",
  margin: "24px 0 16px",
};

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
