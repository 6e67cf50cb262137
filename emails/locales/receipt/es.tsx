import * as React from "react";
import Receipt, { type ReceiptProps } from "../../receipt";

/** The receipt email in es, for React Email's preview server (npm run email). */
export default function ReceiptEs(props: ReceiptProps) {
  return <Receipt {...props} />;
}

ReceiptEs.PreviewProps = {
  ...Receipt.PreviewProps,
  locale: "es",
  customerName: "Lucía",
  orderDate: "4 de marzo de 2025",
  currency: "EUR",
  paymentMethod: "Visa terminada en 4242",
  companyAddress: "Acme S.L., Paseo de la Castellana 89, 28046 Madrid",
} satisfies ReceiptProps;
