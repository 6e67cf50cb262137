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

export type VerifyEmailProps = {
  /** Email verification URL containing a one-time token. Required. */
  verifyUrl?: string;
  /** First name of the new user. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Optional code users can type instead of clicking the link. */
  verificationCode?: string;
  /** How long the link stays valid. */
  expiresInHours?: number;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function VerifyEmail({
  verifyUrl = "https://example.com/verify-email",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  verificationCode = "",
  expiresInHours = 24,
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: VerifyEmailProps) {
  const expiry = `${expiresInHours} hour${expiresInHours === 1 ? "" : "s"}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Confirm your email address for ${productName}`}</Preview>
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
              Confirm your email address
            </Heading>
            <Text style={paragraph}>{`Hi ${userName},`}</Text>
            <Text style={paragraph}>
              Thanks for signing up for {productName}. Please confirm that this is your email address so we can keep
              your account secure and send you important updates. The link expires in {expiry}.
            </Text>

            <Section style={buttonSection}>
              <Button href={verifyUrl} style={button}>
                Confirm email address
              </Button>
            </Section>

            {verificationCode ? (
              <>
                <Text style={paragraph}>Or enter this verification code in the app:</Text>
                <Text style={code} aria-label={`Verification code ${verificationCode}`}>
                  {verificationCode}
                </Text>
              </>
            ) : null}

            <Text style={muted}>If the button doesn't work, copy and paste this URL into your browser:</Text>
            <Text style={urlText}>
              <Link href={verifyUrl} style={link}>
                {verifyUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>If you didn't create a {productName} account, you can safely ignore this email.</Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>This is an automated email from {productName}.</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

VerifyEmail.PreviewProps = {
  verifyUrl: "https://acme.example/verify-email?token=a87ff679a2f3e71d9181",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  verificationCode: "730194",
  expiresInHours: 24,
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies VerifyEmailProps;

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

const code: React.CSSProperties = {
  margin: "0 0 24px",
  padding: "12px 16px",
  backgroundColor: "#f4f4f5",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  fontFamily: 'SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  fontSize: "28px",
  lineHeight: "36px",
  fontWeight: 700,
  letterSpacing: "0.3em",
  textAlign: "center",
  color: "#111827",
};

const muted: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const urlText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "13px",
  lineHeight: "20px",
  wordBreak: "break-all",
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

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
