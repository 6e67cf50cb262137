import * as React from "react";
import Receipt, { type ReceiptProps } from "../../receipt";

/** The receipt email in fr, for React Email's preview server (npm run email). */
export default function ReceiptFr(props: ReceiptProps) {
  return <Receipt {...props} />;
}

ReceiptFr.PreviewProps = {
  ...Receipt.PreviewProps,
  locale: "fr",
  customerName: "Camille",
  orderDate: "4 mars 2025",
  currency: "EUR",
  paymentMethod: "Visa se terminant par 4242",
  companyAddress: "Acme SAS, 8 rue de la Paix, 75002 Paris",
} satisfies ReceiptProps;
