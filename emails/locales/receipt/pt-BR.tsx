import * as React from "react";
import Receipt, { type ReceiptProps } from "../../receipt";

/** The receipt email in pt-BR, for React Email's preview server (npm run email). */
export default function ReceiptPtBr(props: ReceiptProps) {
  return <Receipt {...props} />;
}

ReceiptPtBr.PreviewProps = {
  ...Receipt.PreviewProps,
  locale: "pt-BR",
  customerName: "João",
  orderDate: "4 de março de 2025",
  currency: "BRL",
  paymentMethod: "Visa final 4242",
  companyAddress: "Acme Ltda., Rua Oscar Freire 379, São Paulo - SP",
} satisfies ReceiptProps;
