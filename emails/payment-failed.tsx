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

export type PaymentFailedProps = {
  /** Where customers update their card. Required. */
  updatePaymentUrl?: string;
  /** Customer's first name. */
  customerName?: string;
  /** Your product or company name. */
  productName?: string;
  /** Absolute URL of your logo (PNG, ~32px tall). Leave empty for a text wordmark. */
  logoUrl?: string;
  /** Amount that failed to charge. */
  amount?: number;
  /** Currency symbol placed before the amount. */
  currencySymbol?: string;
  /** Invoice number. Hidden when empty. */
  invoiceNumber?: string;
  /** Last four digits of the card that was declined. Hidden when empty. */
  cardLast4?: string;
  /** Pre-formatted date of the next automatic retry. Hidden when empty. */
  nextRetryDate?: string;
  /** Address customers can contact about billing. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function PaymentFailed({
  updatePaymentUrl = "https://example.com/billing/payment-method",
  customerName = "there",
  productName = "Acme",
  logoUrl = "",
  amount = 0,
  currencySymbol = "$",
  invoiceNumber = "",
  cardLast4 = "",
  nextRetryDate = "",
  supportEmail = "billing@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: PaymentFailedProps) {
  const formattedAmount = `${currencySymbol}${amount.toFixed(2)}`;
  const details: { label: string; value: string }[] = [{ label: "Amount due", value: formattedAmount }];
  if (invoiceNumber) details.push({ label: "Invoice", value: invoiceNumber });
  if (cardLast4) details.push({ label: "Card", value: `•••• ${cardLast4}` });
  if (nextRetryDate) details.push({ label: "Next retry", value: nextRetryDate });

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{`Action needed: we couldn't process your ${productName} payment of ${formattedAmount}`}</Preview>
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
              We couldn't process your payment
            </Heading>
            <Text style={paragraph}>{`Hi ${customerName},`}</Text>
            <Text style={paragraph}>
              {`We tried to charge ${formattedAmount} for your ${productName} subscription${cardLast4 ? ` to the card ending in ${cardLast4}` : ""}, but the payment was declined. This usually happens when a card has expired or the bank flagged the charge.`}
            </Text>

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

            <Section style={buttonSection}>
              <Button href={updatePaymentUrl} style={button}>
                Update payment method
              </Button>
            </Section>

            <Text style={muted}>
              {nextRetryDate
                ? `We'll try again automatically on ${nextRetryDate}. Updating your card now keeps your account active without interruption.`
                : "Updating your card now keeps your account active without interruption."}
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Already updated your details, or think this is a mistake? Contact{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>
              .
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you have an active ${productName} subscription.`}
            </Text>
            <Text style={footerText}>{companyAddress}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

PaymentFailed.PreviewProps = {
  updatePaymentUrl: "https://acme.example/settings/billing/payment-method",
  customerName: "Ada",
  productName: "Acme",
  logoUrl: "",
  amount: 49,
  currencySymbol: "$",
  invoiceNumber: "INV-2025-0314",
  cardLast4: "4242",
  nextRetryDate: "March 10",
  supportEmail: "billing@acme.example",
  companyAddress: "Acme Inc., 123 Market Street, San Francisco, CA 94103",
} satisfies PaymentFailedProps;

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

const detailsBox: React.CSSProperties = {
  backgroundColor: "#f9fafb",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  padding: "12px 16px",
  marginBottom: "24px",
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

const footerText: React.CSSProperties = {
  margin: "0 0 8px",
  fontSize: "12px",
  lineHeight: "20px",
  color: "#52525b",
};
