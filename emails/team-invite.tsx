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

export type TeamInviteProps = {
  /** Invitation acceptance URL. Required. */
  inviteUrl?: string;
  /** Name of the person who sent the invite. */
  inviterName?: string;
  /** Email of the person who sent the invite. Hidden when empty. */
  inviterEmail?: string;
  /** Name of the team, workspace or organisation. */
  teamName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Role the invitee will get, e.g. "Admin" or "Member". */
  role?: string;
  /** Days until the invitation expires. */
  expiresInDays?: number;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function TeamInvite({
  inviteUrl = "https://example.com/invite",
  inviterName = "A teammate",
  inviterEmail = "",
  teamName = "their team",
  productName = "Acme",
  logoUrl = "",
  role = "Member",
  expiresInDays = 7,
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: TeamInviteProps) {
  const expiry = `${expiresInDays} day${expiresInDays === 1 ? "" : "s"}`;

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`${inviterName} invited you to join ${teamName} on ${productName}`}</Preview>
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
              {`Join ${teamName} on ${productName}`}
            </Heading>
            <Text style={paragraph}>
              <strong>{inviterName}</strong>
              {inviterEmail ? (
                <>
                  {" ("}
                  <Link href={`mailto:${inviterEmail}`} style={link}>
                    {inviterEmail}
                  </Link>
                  {")"}
                </>
              ) : null}{" "}
              has invited you to collaborate in <strong>{teamName}</strong> on {productName} as <strong>{role}</strong>.
            </Text>

            <Section style={buttonSection}>
              <Button href={inviteUrl} style={button}>
                Accept invitation
              </Button>
            </Section>

            <Text style={muted}>
              This invitation expires in {expiry}. If the button doesn't work, copy and paste this URL into your
              browser:
            </Text>
            <Text style={urlText}>
              <Link href={inviteUrl} style={link}>
                {inviteUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Weren't expecting this invitation? You can ignore this email. No account will be created unless you
              accept.
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>{`This invitation was sent by ${inviterName} via ${productName}.`}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

TeamInvite.PreviewProps = {
  inviteUrl: "https://acme.example/invites/accept?token=e4da3b7fbbce2345d777",
  inviterName: "Grace Hopper",
  inviterEmail: "grace@navy.example",
  teamName: "Compiler Team",
  productName: "Acme",
  logoUrl: "",
  role: "Admin",
  expiresInDays: 7,
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies TeamInviteProps;

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
