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
import { createTranslator } from "use-intl/core";
import de from "./_messages/password-reset/de.json";
import en from "./_messages/password-reset/en.json";
import es from "./_messages/password-reset/es.json";
import fr from "./_messages/password-reset/fr.json";
import ptBR from "./_messages/password-reset/pt-BR.json";

export type PasswordResetProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** Password reset URL containing a one-time token. Required. */
  resetUrl?: string;
  /** First name of the account owner. */
  userName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** How long the reset link stays valid. */
  expiresInMinutes?: number;
  /** Optional description of where the request came from, e.g. "Chrome on macOS, Berlin". */
  requestedFrom?: string;
  /** Address users can contact if they did not request the reset. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

// One file of messages per locale, as in React Email's internationalization guide; each has every key of en.json.
// A translator per locale, made once: it keeps each message parsed across renders (parsing the welcome email's again
// took about 0.45 ms a render here), and it holds only these constant messages, never a render's values.
const translate = (locale: string, messages: typeof en) => createTranslator({ locale, messages, timeZone: "UTC" });
const translators = {
  en: translate("en", en),
  fr: translate("fr", fr),
  de: translate("de", de),
  es: translate("es", es),
  "pt-BR": translate("pt-BR", ptBR),
};

export default function PasswordReset({
  locale = "en",
  resetUrl = "https://example.com/reset-password",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  expiresInMinutes = 60,
  requestedFrom = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: PasswordResetProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const t = translators[lang];
  const request = requestedFrom ? t("requestFrom", { productName, requestedFrom }) : t("request", { productName });
  // Whole hours read as hours (120 minutes is "2 hours").
  const expiry =
    expiresInMinutes % 60 === 0 && expiresInMinutes >= 60
      ? t("expiresInHours", { hours: expiresInMinutes / 60 })
      : t("expiresInMinutes", { minutes: expiresInMinutes });

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{t("preview", { productName })}</Preview>
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
              {t("heading")}
            </Heading>
            <Text style={paragraph}>{t("greeting", { userName })}</Text>
            <Text style={paragraph}>{`${request} ${expiry}`}</Text>

            <Section style={buttonSection}>
              <Button href={resetUrl} style={button}>
                {t("cta")}
              </Button>
            </Section>

            <Text style={muted}>{t("copyUrl")}</Text>
            <Text style={urlText}>
              <Link href={resetUrl} style={link}>
                {resetUrl}
              </Link>
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              {t.rich("notYou", {
                supportEmail,
                support: (chunks) => (
                  <Link key="support" href={`mailto:${supportEmail}`} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>{t("footer", { productName })}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

PasswordReset.PreviewProps = {
  resetUrl: "https://acme.example/reset-password?token=c4ca4238a0b923820dcc",
  userName: "Ada",
  productName: "Acme",
  logoUrl: "",
  expiresInMinutes: 60,
  requestedFrom: "Firefox on Windows, London",
  supportEmail: "security@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies PasswordResetProps;

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
