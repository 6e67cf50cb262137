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
import { createFormatter, createTranslator } from "use-intl/core";
import de from "./_messages/receipt/de.json";
import en from "./_messages/receipt/en.json";
import es from "./_messages/receipt/es.json";
import fr from "./_messages/receipt/fr.json";
import ptBR from "./_messages/receipt/pt-BR.json";

export type ReceiptLineItem = {
  /** Product or service name. */
  name: string;
  /** Number of units. */
  quantity: number;
  /** Price of a single unit, in the order currency. */
  unitPrice: number;
};

export type ReceiptProps = {
  /** Language of the email: en, fr, de, es or pt-BR (another tag reads as en). */
  locale?: string;
  /** Order or invoice identifier. Required. */
  orderId?: string;
  /** Purchased items. Required. */
  items?: ReceiptLineItem[];
  /** Customer's first name. */
  customerName?: string;
  /** Your store or company name. */
  storeName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Pre-formatted order date, e.g. "March 4, 2025". */
  orderDate?: string;
  /** Currency symbol placed before every amount. */
  currencySymbol?: string;
  /** ISO 4217 currency code, e.g. EUR: amounts are then written as the email's language writes that currency. */
  currency?: string;
  /** Shipping cost. Hidden when 0. */
  shippingAmount?: number;
  /** Tax amount. Hidden when 0. */
  taxAmount?: number;
  /** Discount amount (positive number). Hidden when 0. */
  discountAmount?: number;
  /** Payment method description, e.g. "Visa ending in 4242". */
  paymentMethod?: string;
  /** Link to the order in your app. The button is hidden when empty. */
  orderUrl?: string;
  /** Address customers can contact about the order. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

// One file of messages per locale, as in React Email's internationalization guide; each has every key of en.json.
// A translator and a formatter per locale, made once: they keep each message parsed and each number format made
// across renders, and hold only these constant messages, never a render's values.
const translate = (locale: string, messages: typeof en) => ({
  t: createTranslator({ locale, messages, timeZone: "UTC" }),
  format: createFormatter({ locale, timeZone: "UTC" }),
});
const translators = {
  en: translate("en", en),
  fr: translate("fr", fr),
  de: translate("de", de),
  es: translate("es", es),
  "pt-BR": translate("pt-BR", ptBR),
};

export default function Receipt({
  locale = "en",
  orderId = "0000",
  items = [],
  customerName = "there",
  storeName = "Acme Store",
  logoUrl = "",
  orderDate = "",
  currencySymbol = "$",
  currency = "",
  shippingAmount = 0,
  taxAmount = 0,
  discountAmount = 0,
  paymentMethod = "",
  orderUrl = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: ReceiptProps) {
  const lang = Object.hasOwn(translators, locale) ? (locale as keyof typeof translators) : "en";
  const { t, format } = translators[lang];
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
  const total = subtotal + shippingAmount + taxAmount - discountAmount;
  // With a currency code, the locale's own currency format; else the symbol and two decimals, ungrouped, as before.
  const money = (amount: number) =>
    /^[A-Z]{3}$/.test(currency)
      ? format.number(amount, { style: "currency", currency })
      : t("symbolAmount", {
          sign: amount < 0 ? "-" : "",
          symbol: currencySymbol,
          amount: format.number(Math.abs(amount), {
            minimumFractionDigits: 2,
            maximumFractionDigits: 2,
            useGrouping: false,
          }),
        });

  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{t("preview", { storeName, orderId, total: money(total) })}</Preview>
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
            <Text style={paragraph}>{t("intro", { customerName })}</Text>

            <Row style={metaRow}>
              <Column style={metaColumn}>
                <Text style={label}>{t("orderNumber")}</Text>
                <Text style={value}>{t("orderNumberValue", { orderId })}</Text>
              </Column>
              {orderDate ? (
                <Column style={metaColumn}>
                  <Text style={label}>{t("date")}</Text>
                  <Text style={value}>{orderDate}</Text>
                </Column>
              ) : null}
              {paymentMethod ? (
                <Column style={metaColumn}>
                  <Text style={label}>{t("payment")}</Text>
                  <Text style={value}>{paymentMethod}</Text>
                </Column>
              ) : null}
            </Row>

            <Hr style={hr} />

            <Row>
              <Column>
                <Text style={tableHeading}>{t("item")}</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={{ ...tableHeading, textAlign: "right" }}>{t("amount")}</Text>
              </Column>
            </Row>

            {items.length === 0 ? (
              <Text style={muted}>{t("noItems")}</Text>
            ) : (
              items.map((item, index) => (
                <Row key={`${item.name}-${index}`} style={itemRow}>
                  <Column>
                    <Text style={itemName}>{item.name}</Text>
                    <Text style={itemMeta}>
                      {t("quantity", { quantity: item.quantity, unitPrice: money(item.unitPrice) })}
                    </Text>
                  </Column>
                  <Column style={amountColumn}>
                    <Text style={itemAmount}>{money(item.quantity * item.unitPrice)}</Text>
                  </Column>
                </Row>
              ))
            )}

            <Hr style={hr} />

            <Row>
              <Column>
                <Text style={summaryLabel}>{t("subtotal")}</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={summaryValue}>{money(subtotal)}</Text>
              </Column>
            </Row>
            {discountAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>{t("discount")}</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(-discountAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            {shippingAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>{t("shipping")}</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(shippingAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            {taxAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>{t("tax")}</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(taxAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            <Row style={totalRow}>
              <Column>
                <Text style={totalLabel}>{t("total")}</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={totalValue}>{money(total)}</Text>
              </Column>
            </Row>

            {orderUrl ? (
              <Section style={buttonSection}>
                <Button href={orderUrl} style={button}>
                  {t("cta")}
                </Button>
              </Section>
            ) : null}

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

Receipt.PreviewProps = {
  orderId: "A-10482",
  items: [
    { name: "Letterpress notebook (A5, dotted)", quantity: 2, unitPrice: 18.5 },
    { name: "Brass pen", quantity: 1, unitPrice: 42 },
    { name: "Gift wrapping", quantity: 1, unitPrice: 4 },
  ],
  customerName: "Ada",
  storeName: "Acme Store",
  logoUrl: "",
  orderDate: "March 4, 2025",
  currencySymbol: "$",
  currency: "",
  shippingAmount: 6.95,
  taxAmount: 7.28,
  discountAmount: 5,
  paymentMethod: "Visa ending in 4242",
  orderUrl: "https://store.acme.example/orders/A-10482",
  supportEmail: "orders@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies ReceiptProps;

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

const metaRow: React.CSSProperties = { marginTop: "8px" };

const metaColumn: React.CSSProperties = {
  verticalAlign: "top",
  paddingRight: "12px",
};

const label: React.CSSProperties = {
  margin: "0",
  fontSize: "12px",
  lineHeight: "18px",
  fontWeight: 600,
  textTransform: "uppercase",
  letterSpacing: "0.05em",
  color: "#52525b",
};

const value: React.CSSProperties = {
  margin: "2px 0 0",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#111827",
};

const tableHeading: React.CSSProperties = {
  ...label,
  margin: "0 0 8px",
};

const amountColumn: React.CSSProperties = {
  width: "110px",
  verticalAlign: "top",
  textAlign: "right",
};

const itemRow: React.CSSProperties = { marginBottom: "12px" };

const itemName: React.CSSProperties = {
  margin: "0",
  fontSize: "15px",
  lineHeight: "22px",
  fontWeight: 600,
  color: "#111827",
};

const itemMeta: React.CSSProperties = {
  margin: "0 0 12px",
  fontSize: "13px",
  lineHeight: "20px",
  color: "#52525b",
};

const itemAmount: React.CSSProperties = {
  margin: "0",
  fontSize: "15px",
  lineHeight: "22px",
  color: "#111827",
  textAlign: "right",
};

const summaryLabel: React.CSSProperties = {
  margin: "0 0 6px",
  fontSize: "14px",
  lineHeight: "22px",
  color: "#374151",
};

const summaryValue: React.CSSProperties = {
  ...summaryLabel,
  textAlign: "right",
};

const totalRow: React.CSSProperties = { marginTop: "6px" };

const totalLabel: React.CSSProperties = {
  margin: "6px 0 0",
  fontSize: "16px",
  lineHeight: "24px",
  fontWeight: 700,
  color: "#111827",
};

const totalValue: React.CSSProperties = {
  ...totalLabel,
  textAlign: "right",
};

const buttonSection: React.CSSProperties = { margin: "28px 0 24px" };

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
  margin: "16px 0 0",
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
  margin: "20px 0",
};

const footer: React.CSSProperties = { padding: "24px 8px 0" };

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
