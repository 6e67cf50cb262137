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
import de from "./_messages/order-shipped/de.json";
import en from "./_messages/order-shipped/en.json";
import es from "./_messages/order-shipped/es.json";
import fr from "./_messages/order-shipped/fr.json";
import ptBR from "./_messages/order-shipped/pt-BR.json";

export type OrderShippedProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** Carrier tracking page URL. Required. */
  trackingUrl?: string;
  /** Order identifier shown to the customer. */
  orderId?: string;
  /** Customer's first name. */
  customerName?: string;
  /** Your store or company name. */
  storeName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Shipping carrier, e.g. "UPS". */
  carrier?: string;
  /** Carrier tracking number. Hidden when empty. */
  trackingNumber?: string;
  /** Pre-formatted delivery estimate, e.g. "Thursday, March 6". Hidden when empty. */
  estimatedDelivery?: string;
  /** Delivery estimate as a date, YYYY-MM-DD, written out in the email's language; shown instead of estimatedDelivery. */
  estimatedDeliveryDate?: string;
  /** One-line delivery address. Hidden when empty. */
  shippingAddress?: string;
  /** Number of items in the package. */
  itemCount?: number;
  /** Address customers can contact about the delivery. */
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

/** A YYYY-MM-DD day as a Date at midnight UTC (the translator's time zone), or null when it is no such day. */
function calendarDay(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = new Date(`${value}T00:00:00Z`);
  // An impossible day (2025-02-30) is invalid, or rolls over into another one.
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value) ? day : null;
}

export default function OrderShipped({
  locale = "en",
  trackingUrl = "https://example.com/track",
  orderId = "0000",
  customerName = "there",
  storeName = "Acme Store",
  logoUrl = "",
  carrier = "UPS",
  trackingNumber = "",
  estimatedDelivery = "",
  estimatedDeliveryDate = "",
  shippingAddress = "",
  itemCount = 1,
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: OrderShippedProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const t = translators[lang];
  const deliveryDay = calendarDay(estimatedDeliveryDate);
  const estimate = deliveryDay ? t("deliveryDate", { date: deliveryDay }) : estimatedDelivery;
  const details: { label: string; value: string }[] = [
    { label: t("details.order"), value: t("details.orderNumber", { orderId }) },
    { label: t("details.items"), value: t("details.itemCount", { count: itemCount }) },
    { label: t("details.carrier"), value: carrier },
  ];
  if (trackingNumber) details.push({ label: t("details.trackingNumber"), value: trackingNumber });
  if (estimate) details.push({ label: t("details.estimatedDelivery"), value: estimate });
  if (shippingAddress) details.push({ label: t("details.shippingTo"), value: shippingAddress });

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{estimate ? t("previewWithEstimate", { orderId, estimate }) : t("preview", { orderId })}</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section style={header}>
            {logoUrl ? (
              <Img src={logoUrl} height="32" alt={storeName} style={logo} />
            ) : (
              <Text style={wordmark}>{storeName}</Text>
            )}
          </Section>

          <Section style={card}>
            <Heading as="h1" style={h1}>
              {t("heading")}
            </Heading>
            <Text style={paragraph}>{t("intro", { customerName, orderId, carrier })}</Text>

            <Section style={buttonSection}>
              <Button href={trackingUrl} style={button}>
                {t("cta")}
              </Button>
            </Section>

            <Section style={detailsBox}>
              {details.map((detail) => (
                <Row key={detail.label}>
                  <Column style={labelColumn}>
                    <Text style={label}>{detail.label}</Text>
                  </Column>
                  <Column>
                    <Text style={value}>{detail.value}</Text>
                  </Column>
                </Row>
              ))}
            </Section>

            <Text style={muted}>
              {t.rich("trackingDelay", {
                link: (chunks) => (
                  <Link key="link" href={trackingUrl} style={link}>
                    {chunks}
                  </Link>
                ),
              })}
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              {t.rich("help", {
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
            <Text style={footerText}>{t("footer", { storeName })}</Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

OrderShipped.PreviewProps = {
  trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
  orderId: "A-10482",
  customerName: "Ada",
  storeName: "Acme Store",
  logoUrl: "",
  carrier: "UPS",
  trackingNumber: "1Z999AA10123456784",
  estimatedDelivery: "Thursday, March 6",
  estimatedDeliveryDate: "",
  shippingAddress: "12 St James's Square, London SW1Y 4JH, United Kingdom",
  itemCount: 3,
  supportEmail: "orders@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies OrderShippedProps;

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

const detailsBox: React.CSSProperties = {
  backgroundColor: "#f9fafb",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  padding: "12px 16px",
  marginBottom: "20px",
};

const labelColumn: React.CSSProperties = {
  width: "42%",
  verticalAlign: "top",
  paddingRight: "12px",
};

const label: React.CSSProperties = {
  margin: "6px 0",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#52525b",
};

const value: React.CSSProperties = {
  margin: "6px 0",
  fontSize: "14px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
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

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
