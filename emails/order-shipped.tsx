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

export type OrderShippedProps = {
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
  /** One-line delivery address. Hidden when empty. */
  shippingAddress?: string;
  /** Number of items in the package. */
  itemCount?: number;
  /** Address customers can contact about the delivery. */
  supportEmail?: string;
  /** Postal address shown in the footer. */
  companyAddress?: string;
};

export default function OrderShipped({
  trackingUrl = "https://example.com/track",
  orderId = "0000",
  customerName = "there",
  storeName = "Acme Store",
  logoUrl = "",
  carrier = "UPS",
  trackingNumber = "",
  estimatedDelivery = "",
  shippingAddress = "",
  itemCount = 1,
  supportEmail = "support@example.com",
  companyAddress = "Acme Inc., 123 Market Street, San Francisco, CA 94103",
}: OrderShippedProps) {
  const details: { label: string; value: string }[] = [
    { label: "Order", value: `#${orderId}` },
    { label: "Items", value: `${itemCount} item${itemCount === 1 ? "" : "s"}` },
    { label: "Carrier", value: carrier },
  ];
  if (trackingNumber) details.push({ label: "Tracking number", value: trackingNumber });
  if (estimatedDelivery) details.push({ label: "Estimated delivery", value: estimatedDelivery });
  if (shippingAddress) details.push({ label: "Shipping to", value: shippingAddress });

  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>
        {estimatedDelivery
          ? `Your order #${orderId} is on its way. Estimated delivery: ${estimatedDelivery}.`
          : `Your order #${orderId} is on its way.`}
      </Preview>
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
              Your order is on its way
            </Heading>
            <Text style={paragraph}>
              {`Good news, ${customerName}! Your order #${orderId} has shipped with ${carrier}. You can follow its journey using the button below.`}
            </Text>

            <Section style={buttonSection}>
              <Button href={trackingUrl} style={button}>
                Track your package
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
              Tracking information can take up to 24 hours to appear. If the button doesn't work, open{" "}
              <Link href={trackingUrl} style={link}>
                this tracking link
              </Link>{" "}
              directly.
            </Text>

            <Hr style={hr} />
            <Text style={muted}>
              Something not right with your delivery? Reply to this email or contact{" "}
              <Link href={`mailto:${supportEmail}`} style={link}>
                {supportEmail}
              </Link>
              .
            </Text>
          </Section>

          <Section style={footer}>
            <Text style={footerText}>
              {`You're receiving this email because you placed an order with ${storeName}.`}
            </Text>
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
