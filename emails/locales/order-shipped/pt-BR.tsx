import * as React from "react";
import OrderShipped, { type OrderShippedProps } from "../../order-shipped";

/** The order-shipped email in pt-BR, for React Email's preview server (npm run email). */
export default function OrderShippedPtBr(props: OrderShippedProps) {
  return <OrderShipped {...props} />;
}

OrderShippedPtBr.PreviewProps = {
  ...OrderShipped.PreviewProps,
  locale: "pt-BR",
  customerName: "João",
  estimatedDelivery: "",
  estimatedDeliveryDate: "2025-03-06",
  shippingAddress: "Avenida Paulista 1578, São Paulo - SP, 01310-200",
  companyAddress: "Acme Ltda., Rua Oscar Freire 379, São Paulo - SP",
} satisfies OrderShippedProps;
