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

export type ReceiptLineItem = {
  /** Product or service name. */
  name: string;
  /** Number of units. */
  quantity: number;
  /** Price of a single unit, in the order currency. */
  unitPrice: number;
};

export type ReceiptProps = {
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

function formatMoney(symbol: string, amount: number): string {
  const sign = amount < 0 ? "-" : "";
  return `${sign}${symbol}${Math.abs(amount).toFixed(2)}`;
}

export default function Receipt({
  orderId = "0000",
  items = [],
  customerName = "there",
  storeName = "Acme Store",
  logoUrl = "",
  orderDate = "",
  currencySymbol = "$",
  shippingAmount = 0,
  taxAmount = 0,
  discountAmount = 0,
  paymentMethod = "",
  orderUrl = "",
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: ReceiptProps) {
  const subtotal = items.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0);
  const total = subtotal + shippingAmount + taxAmount - discountAmount;
  const money = (amount: number) => formatMoney(currencySymbol, amount);

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Your ${storeName} receipt for order #${orderId}: ${money(total)}`}</Preview>
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
              Thanks for your order!
            </Heading>
            <Text style={paragraph}>
              {`Hi ${customerName}, we've received your payment. Here's your receipt for your records.`}
            </Text>

            <Row style={metaRow}>
              <Column style={metaColumn}>
                <Text style={label}>Order number</Text>
                <Text style={value}>{`#${orderId}`}</Text>
              </Column>
              {orderDate ? (
                <Column style={metaColumn}>
                  <Text style={label}>Date</Text>
                  <Text style={value}>{orderDate}</Text>
                </Column>
              ) : null}
              {paymentMethod ? (
                <Column style={metaColumn}>
                  <Text style={label}>Payment</Text>
                  <Text style={value}>{paymentMethod}</Text>
                </Column>
              ) : null}
            </Row>

            <Hr style={hr} />

            <Row>
              <Column>
                <Text style={tableHeading}>Item</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={{ ...tableHeading, textAlign: "right" }}>Amount</Text>
              </Column>
            </Row>

            {items.length === 0 ? (
              <Text style={muted}>No items.</Text>
            ) : (
              items.map((item, index) => (
                <Row key={`${item.name}-${index}`} style={itemRow}>
                  <Column>
                    <Text style={itemName}>{item.name}</Text>
                    <Text style={itemMeta}>{`Qty ${item.quantity} × ${money(item.unitPrice)}`}</Text>
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
                <Text style={summaryLabel}>Subtotal</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={summaryValue}>{money(subtotal)}</Text>
              </Column>
            </Row>
            {discountAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>Discount</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(-discountAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            {shippingAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>Shipping</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(shippingAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            {taxAmount ? (
              <Row>
                <Column>
                  <Text style={summaryLabel}>Tax</Text>
                </Column>
                <Column style={amountColumn}>
                  <Text style={summaryValue}>{money(taxAmount)}</Text>
                </Column>
              </Row>
            ) : null}
            <Row style={totalRow}>
              <Column>
                <Text style={totalLabel}>Total paid</Text>
              </Column>
              <Column style={amountColumn}>
                <Text style={totalValue}>{money(total)}</Text>
              </Column>
            </Row>

            {orderUrl ? (
              <Section style={buttonSection}>
                <Button href={orderUrl} style={button}>
                  View your order
                </Button>
              </Section>
            ) : null}

            <Text style={muted}>
              Questions about this order? Reply to this email or contact{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>
              .
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this receipt because you made a purchase from ${storeName}.`}
            </Text>
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
