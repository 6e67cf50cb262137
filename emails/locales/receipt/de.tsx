import * as React from "react";
import Receipt, { type ReceiptProps } from "../../receipt";

/** The receipt email in de, for React Email's preview server (npm run email). */
export default function ReceiptDe(props: ReceiptProps) {
  return <Receipt {...props} />;
}

ReceiptDe.PreviewProps = {
  ...Receipt.PreviewProps,
  locale: "de",
  customerName: "Lena",
  orderDate: "4. März 2025",
  currency: "EUR",
  paymentMethod: "Visa mit Endziffern 4242",
  companyAddress: "Acme GmbH, Unter den Linden 21, 10117 Berlin",
} satisfies ReceiptProps;
